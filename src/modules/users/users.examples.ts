/**
 * Examples of the user schemas and of the parameters of their routes, attached to the users controller with @ApiDocs.
 */
import { USER_ID, membership, page, user } from '../../shared/http/example-values';

const ADMIN_USER_ID = '0d9c2b1a-7e6f-4c5d-8b3a-2f1e0d9c8b7a';

export const USERS_SCHEMA_EXAMPLES: Record<string, unknown> = {
  UserResponse: user,
  UserPage: page([user, { ...user, userId: ADMIN_USER_ID, username: 'platform.admin', email: 'ops@uplink.example', displayName: 'Platform Administrator', metadata: {}, platformRoles: ['platform_admin'], isProtected: true, createdAt: '2026-01-05T06:00:00.000Z', updatedAt: '2026-01-05T06:12:44.871Z' }], 142),
  CreateUserRequest: {
    username: 'maria.lopez',
    email: 'maria.lopez@acme-water.example',
    displayName: 'María López',
    temporaryPassword: 'Temp-Pass-7Q2x-Lm9w',
    metadata: { department: 'Field operations', employeeNumber: 'E-10442' },
  },
  UpdateUserRequest: { displayName: 'María López García', status: 'disabled' },
  SetTemporaryPasswordRequest: { temporaryPassword: 'Reset-8Kp3-Vn6t-Wq1z' },
  UserMembershipResponse: { ...membership, tenantNumber: 7 },
  UserMembershipPage: page([{ ...membership, tenantNumber: 7 }], 3),
};

export const USERS_PARAMETER_EXAMPLES: Record<string, unknown> = {
  userId: USER_ID,
};
