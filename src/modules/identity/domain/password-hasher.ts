import { Injectable, OnModuleInit } from '@nestjs/common';
import bcrypt from 'bcrypt';
import { AppConfig } from '../../../config/app-config';

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;

/**
 * bcrypt through its asynchronous API: hashing runs on libuv's thread pool, never on the event loop. At most
 * BCRYPT_MAX_CONCURRENCY operations run at once (default: all cores but one) and the rest wait in a FIFO, so a
 * storm of logins slows logins, not every other request. Unknown users are compared against a dummy hash of the
 * same cost, so timing does not reveal whether an identifier exists.
 */
@Injectable()
export class PasswordHasher implements OnModuleInit {
  private dummyHash = '';
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly config: AppConfig) {}

  async onModuleInit(): Promise<void> {
    this.dummyHash = await bcrypt.hash('uplink-dummy-password-for-timing', this.config.bcryptCost);
  }

  hash(password: string): Promise<string> {
    return this.limited(() => bcrypt.hash(password, this.config.bcryptCost));
  }

  /** Always does one full bcrypt comparison, even without a stored hash. */
  async verify(password: string, hash: string | null): Promise<boolean> {
    const matches = await this.limited(() => bcrypt.compare(password, hash ?? this.dummyHash));
    return hash !== null && matches;
  }

  private async limited<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.config.bcryptMaxConcurrency) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return await work();
    } finally {
      // Hand the slot straight to the next waiter (the count stays), or free it.
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}

/** The password policy: 12..128 characters, not equal (case-insensitive) to the username or e-mail. */
export function passwordPolicyViolation(password: string, user: { username: string; email: string }): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH) {
    return `The password must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters long.`;
  }
  const lowered = password.toLowerCase();
  if (lowered === user.username.toLowerCase() || lowered === user.email.toLowerCase()) {
    return 'The password must not equal the username or e-mail address.';
  }
  return null;
}
