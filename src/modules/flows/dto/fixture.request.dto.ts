import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsBoolean, IsObject, IsOptional, IsString } from 'class-validator';
import { NotBlank, WhenPresent } from '../../../shared/validation/fields';
import { Length } from '../../../shared/validation/text-length';

/**
 * A fixture body, shape 1 (`input`, complete) or shape 2 (`raw` reference + `confirmRawRetentionExtension:
 * true`). The nested rules are the fixture rules' (paths under `body.input`, `body.raw`, `body.assertions`).
 */
export class FixtureRequest {
  @ApiPropertyOptional({ minLength: 1, maxLength: 200 })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  @NotBlank()
  name?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      'Required in shape 1, complete: `mode` (`fixture`), `rawPayload` {`encoding` (`base64`, `hex`, `utf8`, `json`), `data` ≤ 65536 characters that decodes}, `observedAt`, `rawReceivedAt` (RFC 3339), `tenantId` and `deviceTypeId` (the flow\'s, else `mismatch`), `deviceId` (need not exist), `correlationId` (1..128), `connectionData` (object ≤ 16 KiB), `parameters` (object).',
  })
  @WhenPresent()
  @IsObject()
  input?: Record<string, unknown>;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'Shape 2: {`rawIngestionMessageId`, `receivedAt`} of a stored raw message of a device of this type; needs `confirmRawRetentionExtension: true`.',
  })
  // null is not absent: `raw` is an object when sent
  @WhenPresent()
  @IsObject()
  raw?: Record<string, unknown>;

  @ApiPropertyOptional({ description: 'Must be `true` when `raw` is sent (the raw message is kept as long as the fixture).' })
  @IsOptional()
  @IsBoolean()
  confirmRawRetentionExtension?: boolean;

  @ApiPropertyOptional({ type: 'array', items: { type: 'object', additionalProperties: true }, description: '≤ 50 × {`path` 1..500, `expected` any JSON}.' })
  @IsOptional()
  @IsArray()
  assertions?: { path: string; expected: unknown }[];
}
