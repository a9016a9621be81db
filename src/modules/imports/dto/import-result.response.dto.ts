import { ApiProperty } from '@nestjs/swagger';
import { ISSUE_CODES, IssueCode, IssueEntity } from '../domain/legacy-import-plan';

export class ImportSourceCounts {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Tenants the credentials can see.' })
  tenantCount!: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Device type records of all those tenants.' })
  deviceTypeCount!: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Device records of all those tenants.' })
  deviceCount!: number;
}

/** Every source record of the entity is counted once: created + existing + skipped = its source count. */
export class ImportEntityCounts {
  @ApiProperty({ type: 'integer', minimum: 0 })
  created!: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Already in the target as the record describes it (left unchanged).' })
  existing!: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Not imported; each has an issue.' })
  skipped!: number;
}

export class ImportIssueResponse {
  @ApiProperty({ enum: ['device_type', 'device'] })
  entity!: IssueEntity;

  @ApiProperty({ enum: ISSUE_CODES })
  code!: IssueCode;

  @ApiProperty({ minLength: 1, maxLength: 200, description: 'The source `id`, else its code or devEui, else `index:<n>` (0-based position in the source order).' })
  sourceIdentifier!: string;
}

/** The outcome of a legacy snapshot import (or of its dry run, which has the same shape). */
export class ImportResultResponse {
  @ApiProperty({ format: 'uuid' })
  targetTenantId!: string;

  @ApiProperty({ format: 'date-time' })
  completedAt!: string;

  @ApiProperty({ type: ImportSourceCounts })
  source!: ImportSourceCounts;

  @ApiProperty({ type: ImportEntityCounts })
  deviceTypes!: ImportEntityCounts;

  @ApiProperty({ type: ImportEntityCounts })
  devices!: ImportEntityCounts;

  @ApiProperty({ type: [ImportIssueResponse], maxItems: 200, description: 'The first 200 issues in source order (device types, then devices).' })
  issues!: ImportIssueResponse[];
}
