import { DeviceFieldDefinitionEntity } from '../modules/device-types/domain/device-field-definition.entity';
import { DeviceTypeEntity } from '../modules/device-types/domain/device-type.entity';
import { FlowBlockEntity } from '../modules/blocks/domain/flow-block.entity';
import { DeviceAssignmentEntity } from '../modules/devices/domain/device-assignment.entity';
import { DeviceEntity } from '../modules/devices/domain/device.entity';
import { FlowFixtureEntity } from '../modules/flows/domain/flow-fixture.entity';
import { FlowParameterOverrideEntity } from '../modules/flows/domain/flow-parameter-override.entity';
import { FlowEntity } from '../modules/flows/domain/flow.entity';
import { RefreshTokenEntity } from '../modules/identity/domain/refresh-token.entity';
import { SessionEntity } from '../modules/identity/domain/session.entity';
import { UserEntity } from '../modules/identity/domain/user.entity';
import { MembershipEntity } from '../modules/tenancy/domain/membership.entity';
import { OrganizationUnitEntity } from '../modules/tenancy/domain/organization-unit.entity';
import { TenantEntity } from '../modules/tenancy/domain/tenant.entity';
import { IngestionCredentialEntity } from '../modules/ingestion/domain/ingestion-credential.entity';
import { RawIngestionMessageEntity } from '../modules/ingestion/domain/raw-ingestion-message.entity';
import { FlowExecutionEntity } from '../modules/processing/executions/domain/flow-execution.entity';
import { FlowReplayEntity } from '../modules/processing/replays/domain/flow-replay.entity';
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
