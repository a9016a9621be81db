import { Query } from '@nestjs/cqrs';
import { VersionResponse } from '../dto/version.response.dto';

export class GetVersionQuery extends Query<VersionResponse> {}
