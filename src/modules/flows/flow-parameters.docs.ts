import { defineDocs, ASCENDING, EXISTENCE_404, lines } from '../../shared/http/route-docs';

/** Summary, description and declared errors of each operation of this controller; the access rule is generated. */
export const FLOW_PARAMETERS_DOCS = defineDocs({
  parameterOverrides_list: {
    summary: 'List parameter overrides of a flow',
    description: lines(
      'The overrides that can apply to the flow: the tenant’s (they apply to every flow declaring the key), the device type’s and its devices’. Filters: `level` (`tenant`, `device_type`, `device`), `deviceId`, `key`.',
      ASCENDING,
      EXISTENCE_404,
    ),
  },
  parameterOverrides_setTenant: {
    summary: 'Set a tenant-level parameter override',
    description: lines(
      'Upsert of `value` for `key` at tenant level: it applies to every flow of the tenant declaring the key. 400 `params.key` `undeclared_parameter` when no version of this flow declares the key; 400 `body.value` `type` when the value is not of the newest declaration’s type.',
      EXISTENCE_404,
    ),
  },
  parameterOverrides_setDeviceType: {
    summary: 'Set a device-type parameter override',
    description: lines(
      'Upsert of `value` for `key` for the flow’s device type. 400 `undeclared_parameter` (params.key), `type` (body.value) as for the tenant level.',
      EXISTENCE_404,
    ),
  },
  parameterOverrides_setDevice: {
    summary: 'Set a device parameter override',
    description: lines(
      'Upsert of `value` for `key` for one device of the flow’s device type (another device is the device’s 404). 400 `undeclared_parameter`, `type` as for the tenant level.',
      EXISTENCE_404,
    ),
  },
  parameterOverrides_deleteTenant: {
    summary: 'Delete a tenant-level parameter override',
    description: lines(
      '204; the default applies again.',
      EXISTENCE_404 + ' Also 404 (`flow_parameter_override`) when there is no such override.',
    ),
  },
  parameterOverrides_deleteDeviceType: {
    summary: 'Delete a device-type parameter override',
    description: lines(
      '204; the tenant value or the default applies again.',
      EXISTENCE_404 + ' Also 404 (`flow_parameter_override`) when there is no such override.',
    ),
  },
  parameterOverrides_deleteDevice: {
    summary: 'Delete a device parameter override',
    description: lines(
      '204; the device-type or tenant value or the default applies again.',
      EXISTENCE_404 + ' Also 404 (`flow_parameter_override`) when there is no such override.',
    ),
  },
  resolvedParameters_get: {
    summary: 'Resolve a device’s parameter values',
    description: lines(
      'For diagnostics: each parameter declared by the version (`flowVersionId`, default the active version) with its `value` and `source`: the device’s override, else the device type’s, else the tenant’s, else the declared `default`; an override whose value is not of the declared type is skipped. `deviceId` (required) must be a device of the flow’s device type (else 400 `query.deviceId` `reference_not_found`).',
      EXISTENCE_404 + ' **409** `no_active_version` when no `flowVersionId` is given and the flow has none active.',
    ),
    errors: { 409: 'no_active_version' },
  },
});
