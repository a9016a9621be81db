import { Query } from '@nestjs/cqrs';
import { ReadinessResponse } from '../dto/readiness.response.dto';

export class GetReadinessQuery extends Query<ReadinessResponse> {}
