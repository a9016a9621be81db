import { Column } from 'typeorm';

/**
 * The columns many tables share, declared once. Each stands for exactly the column the migrations create, so an
 * entity using them maps the same schema as one spelling the options out.
 */

/** `tenant_id uuid`: the owning tenant (nullable where a row may belong to the platform). */
export const TenantIdColumn = (options: { nullable?: boolean } = {}): PropertyDecorator =>
  Column({ name: 'tenant_id', type: 'uuid', ...(options.nullable ? { nullable: true } : {}) });

/** `created_at timestamptz(3) default clock_timestamp()`. */
export const CreatedAtColumn = (): PropertyDecorator =>
  Column({ name: 'created_at', type: 'timestamptz', precision: 3, default: () => 'clock_timestamp()' });

/** `updated_at timestamptz(3) default clock_timestamp()`. */
export const UpdatedAtColumn = (): PropertyDecorator =>
  Column({ name: 'updated_at', type: 'timestamptz', precision: 3, default: () => 'clock_timestamp()' });

/** `lock_version int default 1`: the version `If-Match` names. */
export const LockVersionColumn = (): PropertyDecorator => Column({ name: 'lock_version', type: 'int', default: 1 });

/** `key varchar(64)`. */
export const KeyColumn = (): PropertyDecorator => Column({ type: 'varchar', length: 64 });

/** `name varchar(200)`. */
export const NameColumn = (): PropertyDecorator => Column({ type: 'varchar', length: 200 });

/** `description varchar(500) default ''`. */
export const DescriptionColumn = (): PropertyDecorator => Column({ type: 'varchar', length: 500, default: '' });

/** `status varchar(16) default 'active'`. */
export const StatusColumn = (): PropertyDecorator => Column({ type: 'varchar', length: 16, default: 'active' });

/** `metadata jsonb default '{}'`: a free string map. */
export const MetadataColumn = (): PropertyDecorator => Column({ type: 'jsonb', default: () => "'{}'::jsonb" });

/** A row with `created_at` and `updated_at`. */
export abstract class TimestampedRow {
  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}

/** A timestamped row changed only through `If-Match` on its `lock_version`. */
export abstract class VersionedRow extends TimestampedRow {
  @LockVersionColumn()
  lockVersion!: number;
}
