import { ApiProperty } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';

export class ActivateFlowRequest {
  @ApiProperty({ format: 'uuid', description: 'A released version of this flow; a lower number than the active one is a rollback.' })
  @IsUUID()
  flowVersionId!: string;
}
