import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { ValidationReportResponse } from '../dto/validation-report.response.dto';

export class ValidateFlowVersionQuery extends Query<ValidationReportResponse> {
  constructor(
    readonly caller: Caller,
    readonly flowId: string,
    readonly flowVersionId: string,
  ) {
    super();
  }
}
