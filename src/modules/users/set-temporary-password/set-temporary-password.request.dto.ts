import { TemporaryPassword } from '../domain/user-fields';

export class SetTemporaryPasswordRequest {
  @TemporaryPassword()
  temporaryPassword!: string;
}
