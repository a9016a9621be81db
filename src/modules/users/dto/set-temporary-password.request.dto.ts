import { TemporaryPassword } from './user.fields';

export class SetTemporaryPasswordRequest {
  @TemporaryPassword()
  temporaryPassword!: string;
}
