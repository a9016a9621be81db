import { ApiProperty } from '@nestjs/swagger';

export class EchoResponse {
  @ApiProperty()
  message!: string;

  @ApiProperty()
  correlationId!: string;

  @ApiProperty({ format: 'date-time' })
  receivedAt!: string;

  @ApiProperty({ format: 'uuid', nullable: true, type: String })
  userId!: string | null;

  @ApiProperty()
  databaseRoundTripMs!: number;
}
