import { Query } from '@nestjs/cqrs';
import { ReadinessResponse } from './readiness.response.dto';

export class GetReadinessQuery extends Query<ReadinessResponse> {}
