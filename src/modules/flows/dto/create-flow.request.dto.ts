import { EntityKey, EntityName } from '../../../shared/validation/fields';
import { OptionalDescription } from '../../device-types';

export class CreateFlowRequest {
  @EntityKey()
  key!: string;

  @EntityName()
  name!: string;

  @OptionalDescription()
  description?: string;
}
