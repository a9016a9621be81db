import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../../config/app-config';
import { VersionResponse } from '../dto/version.response.dto';
import { GetVersionQuery } from './get-version.query';

@QueryHandler(GetVersionQuery)
export class GetVersionHandler implements IQueryHandler<GetVersionQuery, VersionResponse> {
  constructor(private readonly config: AppConfig) {}

  async execute(): Promise<VersionResponse> {
    return VersionResponse.of(this.config);
  }
}
