import { AuditLog1763863000000 } from './1763863000000-audit-log';
import { Identity1763900000000 } from './1763900000000-identity';
import { Tenancy1763950000000 } from './1763950000000-tenancy';
import { Devices1764000000000 } from './1764000000000-devices';
import { MillisecondTimestamps1764100000000 } from './1764100000000-millisecond-timestamps';
import { Jobs1764200000000 } from './1764200000000-jobs';
import { EmailRule1764300000000 } from './1764300000000-email-rule';
import { FlowBlocks1764500000000 } from './1764500000000-flow-blocks';
import { Flows1764600000000 } from './1764600000000-flows';
import { Ingestion1764700000000 } from './1764700000000-ingestion';
import { Processing1764800000000 } from './1764800000000-processing';
import { Retention1764810000000 } from './1764810000000-retention';
import { EmailTemplates1765000000000 } from './1765000000000-email-templates';
import { FieldContractVersion1765010000000 } from './1765010000000-field-contract-version';
import { DeviceLastSeen1765100000000 } from './1765100000000-device-last-seen';
import { FlowDebugCaptures1765100000001 } from './1765100000001-flow-debug-captures';

/** Every migration, oldest first; `npm run migration:generate` writes new files that must be added here. */
export const MIGRATIONS = [
  AuditLog1763863000000,
  Identity1763900000000,
  Tenancy1763950000000,
  Devices1764000000000,
  MillisecondTimestamps1764100000000,
  Jobs1764200000000,
  EmailRule1764300000000,
  FlowBlocks1764500000000,
  Flows1764600000000,
  Ingestion1764700000000,
  Processing1764800000000,
  Retention1764810000000,
  EmailTemplates1765000000000,
  FieldContractVersion1765010000000,
  DeviceLastSeen1765100000000,
  FlowDebugCaptures1765100000001,
];
