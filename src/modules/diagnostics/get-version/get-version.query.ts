import { Query } from '@nestjs/cqrs';
import { VersionResponse } from './version.response.dto';

export class GetVersionQuery extends Query<VersionResponse> {}
