import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional, IsString } from 'class-validator';
import { Length } from '../../../shared/validation/text-length';

/** Where the legacy system is and whose credentials read it; used for this request only, never stored or logged. */
export class ImportLegacySnapshotRequest {
  @ApiProperty({
    format: 'uri',
    maxLength: 300,
    description: 'The legacy system’s API address; must match the installation’s accepted address pattern (`LEGACY_IMPORT_BASE_URL_PATTERN`).',
  })
  @IsString()
  @Length(1, 300)
  baseUrl!: string;

  @ApiProperty({ minLength: 1, maxLength: 200, description: 'A user of the legacy system; used for this request only.' })
  @IsString()
  @Length(1, 200)
  username!: string;

  @ApiProperty({ minLength: 1, maxLength: 500, format: 'password', description: 'Its password; used for this request only, never stored, logged or audited.' })
  @IsString()
  @Length(1, 500)
  password!: string;
}

export class ImportLegacySnapshotParams {
  @ApiPropertyOptional({
    type: 'boolean',
    default: false,
    description: 'true: run every check (conflicts with the target included) and answer the same result, persisting nothing.',
  })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean({ message: 'dryRun must be true or false' })
  dryRun?: boolean;
}
