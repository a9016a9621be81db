import { ApiProperty } from '@nestjs/swagger';
import { IsObject, IsUUID } from 'class-validator';

export class PreviewFlowRequest {
  @ApiProperty({ format: 'uuid', description: 'A version of this flow in any status.' })
  @IsUUID()
  flowVersionId!: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'The complete input envelope: `mode` (`preview`), `rawPayload` {`encoding` (`base64`, `hex`, `utf8`, `json`), `data` ≤ 65536 characters that decodes}, `observedAt`, `rawReceivedAt` (RFC 3339), `tenantId` and `deviceTypeId` (the flow\'s, else `mismatch`), `deviceId` (need not exist), `correlationId` (1..128), `connectionData` (object ≤ 16 KiB), `parameters` (object, over the declared defaults).',
  })
  @IsObject()
  input!: Record<string, unknown>;
}
