/** Variables the global setup hands to every jest worker (workers inherit the parent's environment). */
export const TEST_ADMIN_URL = 'UPLINK_TEST_ADMIN_URL';
export const TEST_TEMPLATE_DB = 'UPLINK_TEST_TEMPLATE_DB';

export function requireTestEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the e2e tests through jest (global setup)`);
  return value;
}
