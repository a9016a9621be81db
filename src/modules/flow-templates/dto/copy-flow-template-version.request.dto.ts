import { ApiProperty } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';

export class CopyFlowTemplateVersionRequest {
  @ApiProperty({ format: 'uuid', description: "The flow to copy the version into: a new draft of it, with the flow's device type." })
  @IsUUID()
  flowId!: string;
}
