/**
 * Examples of the device and assignment schemas and of the parameters of their routes, attached to the devices
 * controller with @ApiDocs.
 */
import { ASSIGNMENT_ID, DEVICE_ID, DEVICE_TYPE_ID, ROOT_UNIT_ID, TENANT_ID, TENANT_NUMBER, UNIT_ID, page } from '../../shared/http/example-values';

const EARLIER_ASSIGNMENT_ID = '70efdf2e-c9b0-4b8d-8f63-1a2b3c4d5e6f';

const assignment = {
  deviceAssignmentId: ASSIGNMENT_ID,
  deviceId: DEVICE_ID,
  tenantId: TENANT_ID,
  organizationUnitId: UNIT_ID,
  validFrom: '2026-03-14T10:05:09.201Z',
  validTo: null,
  assignedAt: '2026-03-14T10:05:09.201Z',
  createdAt: '2026-03-14T10:05:09.201Z',
  updatedAt: '2026-03-14T10:05:09.201Z',
};

const closedAssignment = {
  ...assignment,
  deviceAssignmentId: EARLIER_ASSIGNMENT_ID,
  organizationUnitId: ROOT_UNIT_ID,
  validFrom: '2026-02-10T07:30:00.000Z',
  validTo: '2026-03-14T10:05:09.201Z',
  assignedAt: '2026-02-10T07:31:12.448Z',
  createdAt: '2026-02-10T07:31:12.448Z',
  updatedAt: '2026-03-14T10:05:09.201Z',
};

const device = {
  deviceId: DEVICE_ID,
  tenantId: TENANT_ID,
  deviceTypeId: DEVICE_TYPE_ID,
  devEui: '70B3D57ED005A4F1',
  name: 'Meter 0417 – Harbour Road pump station',
  status: 'active',
  metadata: { serialNumber: 'WM-22-004171', installedBy: 'North crew 2' },
  currentAssignment: assignment,
  lastSeenAt: '2026-03-14T10:15:00.412Z',
  createdAt: '2026-02-10T07:31:12.448Z',
  updatedAt: '2026-03-14T10:05:09.201Z',
};

export const DEVICES_SCHEMA_EXAMPLES: Record<string, unknown> = {
  DeviceResponse: device,
  DevicePage: page([device, { ...device, deviceId: 'c20ad4d7-6fe9-4759-aa27-a0c99bff6710', devEui: '70B3D57ED005A512', name: 'Meter 0418 – Quay Street', metadata: {}, currentAssignment: null, lastSeenAt: null, status: 'disabled' }], 318),
  CreateDeviceRequest: {
    devEui: '70B3D57ED005A4F1',
    name: 'Meter 0417 – Harbour Road pump station',
    deviceTypeId: DEVICE_TYPE_ID,
    metadata: { serialNumber: 'WM-22-004171', installedBy: 'North crew 2' },
    organizationUnitId: UNIT_ID,
  },
  UpdateDeviceRequest: { name: 'Meter 0417 – Harbour Road (replaced battery)' },
  DeviceAssignmentResponse: assignment,
  DeviceAssignmentPage: page([closedAssignment, assignment], 2),
  AssignDeviceRequest: { organizationUnitId: UNIT_ID, validFrom: '2026-03-14T10:05:09.201Z' },
  EndDeviceAssignmentRequest: { validTo: '2026-03-20T18:00:00.000Z' },
};

export const DEVICES_PARAMETER_EXAMPLES: Record<string, unknown> = {
  tenantNumber: TENANT_NUMBER,
  deviceId: DEVICE_ID,
  deviceAssignmentId: ASSIGNMENT_ID,
};
