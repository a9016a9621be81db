import { EntityKey, EntityName } from '../../../shared/validation/fields';
import { OptionalDescription } from './device-type.fields';

export class CreateDeviceTypeRequest {
  @EntityKey()
  key!: string;

  @EntityName()
  name!: string;

  @OptionalDescription()
  description?: string;
}
