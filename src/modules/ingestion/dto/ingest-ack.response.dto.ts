import { ApiProperty } from '@nestjs/swagger';

/** The answer to an accepted uplink: its stored row (the original one for a repeat). */
export class IngestAckResponse {
  @ApiProperty({ format: 'uuid' })
  rawIngestionMessageId!: string;

  @ApiProperty({ format: 'date-time', description: 'When Uplink received it (the original receipt for a repeat).' })
  receivedAt!: string;

  @ApiProperty({ description: 'True for a repeat within 24 h: the original is answered and not processed again.' })
  duplicate!: boolean;
}
