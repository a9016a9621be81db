import { Query } from '@nestjs/cqrs';
import { EchoResponse } from '../dto/echo.response.dto';

export class EchoQuery extends Query<EchoResponse> {
  constructor(
    readonly message: string,
    readonly userId: string | null,
  ) {
    super();
  }
}
