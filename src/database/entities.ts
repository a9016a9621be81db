import { DeviceFieldDefinitionEntity } from '../modules/device-types/persistence/device-field-definition.entity';
import { DeviceTypeEntity } from '../modules/device-types/persistence/device-type.entity';
import { FlowBlockEntity } from '../modules/blocks/persistence/flow-block.entity';
import { DeviceAssignmentEntity } from '../modules/devices/persistence/device-assignment.entity';
import { DeviceEntity } from '../modules/devices/persistence/device.entity';
import { FlowFixtureEntity } from '../modules/flows/persistence/flow-fixture.entity';
import { FlowParameterOverrideEntity } from '../modules/flows/persistence/flow-parameter-override.entity';
import { FlowEntity } from '../modules/flows/persistence/flow.entity';
import { RefreshTokenEntity } from '../modules/identity/persistence/refresh-token.entity';
import { SessionEntity } from '../modules/identity/persistence/session.entity';
import { UserEntity } from '../modules/identity/persistence/user.entity';
import { MembershipEntity } from '../modules/tenancy/persistence/membership.entity';
import { OrganizationUnitEntity } from '../modules/tenancy/persistence/organization-unit.entity';
import { TenantEntity } from '../modules/tenancy/persistence/tenant.entity';
import { IngestionCredentialEntity } from '../modules/ingestion/persistence/ingestion-credential.entity';
import { RawIngestionMessageEntity } from '../modules/ingestion/persistence/raw-ingestion-message.entity';
import { FlowExecutionEntity } from '../modules/processing/persistence/flow-execution.entity';
import { FlowReplayEntity } from '../modules/processing/persistence/flow-replay.entity';
import { EmailTemplateVersionEntity } from '../modules/actions/persistence/email-template-version.entity';
import { EmailTemplateEntity } from '../modules/actions/persistence/email-template.entity';
import { FlowActionRequestEntity } from '../modules/actions/persistence/flow-action-request.entity';
import { AuditLogEntity } from '../shared/audit/audit-log.entity';

/** Every TypeORM entity of the service; a new module adds its entities here. */
export const ENTITIES = [
  AuditLogEntity,
  UserEntity,
  SessionEntity,
  RefreshTokenEntity,
  TenantEntity,
  OrganizationUnitEntity,
  MembershipEntity,
  DeviceTypeEntity,
  FlowBlockEntity,
  DeviceFieldDefinitionEntity,
  DeviceEntity,
  DeviceAssignmentEntity,
  FlowEntity,
  FlowFixtureEntity,
  FlowParameterOverrideEntity,
  IngestionCredentialEntity,
  RawIngestionMessageEntity,
  FlowExecutionEntity,
  FlowReplayEntity,
  FlowActionRequestEntity,
  EmailTemplateEntity,
  EmailTemplateVersionEntity,
];
