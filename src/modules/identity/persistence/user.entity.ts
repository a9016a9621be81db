import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { MetadataColumn, StatusColumn, TimestampedRow } from '../../../shared/database/columns';

export type UserStatus = 'active' | 'disabled';

/** A global user (the API record "Global user"); the password hash never leaves the identity module. */
@Entity({ name: 'users' })
export class UserEntity extends TimestampedRow {
  @PrimaryGeneratedColumn('uuid', { name: 'user_id' })
  userId!: string;

  @Column({ type: 'varchar', length: 64 })
  username!: string;

  @Column({ type: 'varchar', length: 254 })
  email!: string;

  @Column({ name: 'display_name', type: 'varchar', length: 200 })
  displayName!: string;

  @StatusColumn()
  status!: UserStatus;

  @MetadataColumn()
  metadata!: Record<string, string>;

  @Column({ name: 'is_protected', type: 'boolean', default: false })
  isProtected!: boolean;

  @Column({ name: 'is_platform_admin', type: 'boolean', default: false })
  isPlatformAdmin!: boolean;

  @Column({ name: 'password_hash', type: 'varchar', length: 100, nullable: true })
  passwordHash!: string | null;

  @Column({ name: 'password_change_required', type: 'boolean', default: false })
  passwordChangeRequired!: boolean;

  @Column({ name: 'password_changed_at', type: 'timestamptz', nullable: true })
  passwordChangedAt!: Date | null;
}
