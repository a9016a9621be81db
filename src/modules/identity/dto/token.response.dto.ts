import { ApiProperty } from '@nestjs/swagger';
import type { TokenResponseBody } from '../domain/token-issuer';

/** The API's token object; the refresh token itself travels only in the cookie. */
export class TokenResponse implements TokenResponseBody {
  @ApiProperty()
  accessToken!: string;

  @ApiProperty({ enum: ['Bearer'] })
  tokenType!: 'Bearer';

  @ApiProperty({ minimum: 60, maximum: 3600, example: 1800 })
  expiresInSeconds!: number;

  @ApiProperty({ format: 'date-time' })
  refreshIdleExpiresAt!: string;

  @ApiProperty()
  passwordChangeRequired!: boolean;
}
