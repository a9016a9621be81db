import { ApiProperty } from '@nestjs/swagger';
import { SessionResponse } from './session.response.dto';

export class SessionList {
  @ApiProperty({ type: [SessionResponse], maxItems: 10 })
  items!: SessionResponse[];
}
