import { EntityKey, EntityName, Metadata } from '../../../shared/validation/fields';

export class CreateTenantRequest {
  @EntityKey()
  key!: string;

  @EntityName()
  name!: string;

  @Metadata('Default `{}`.')
  metadata?: Record<string, string>;
}
