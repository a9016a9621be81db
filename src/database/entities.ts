import { AuditLogEntity } from '../shared/audit/audit-log.entity';

/** Every TypeORM entity of the service; a new module adds its entities here. */
export const ENTITIES = [AuditLogEntity];
