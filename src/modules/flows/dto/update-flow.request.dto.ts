import { OptionalEntityName } from '../../../shared/validation/fields';
import { MinProperties } from '../../../shared/validation/min-properties';
import { OptionalDescription } from '../../device-types';

/** At least one property; `key` and `deviceTypeId` are immutable. */
@MinProperties(1)
export class UpdateFlowRequest {
  @OptionalEntityName()
  name?: string;

  @OptionalDescription('Absent: unchanged.')
  description?: string;
}
