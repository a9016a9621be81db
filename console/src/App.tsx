import { Fragment } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { useSession } from './auth/session';
import { Layout } from './components/Layout';
import { Loading } from './components/status';
import { SignInPage } from './pages/SignInPage';
import { ChangePasswordPage } from './pages/ChangePasswordPage';
import { HomePage } from './pages/HomePage';
import { AccountPage } from './pages/AccountPage';
import { DevicesPage } from './pages/DevicesPage';
import { DevicePage } from './pages/DevicePage';
import { GuidePage } from './pages/GuidePage';
import { OriginNotAllowedPage } from './pages/OriginNotAllowedPage';
import { DeviceTypesPage } from './pages/DeviceTypesPage';
import { DeviceTypePage } from './pages/DeviceTypePage';
import { CredentialsPage } from './pages/CredentialsPage';
import { UnitsPage } from './pages/UnitsPage';
import { AuditPage } from './pages/AuditPage';
import { MembershipsPage } from './pages/MembershipsPage';
import { UsersPage } from './pages/UsersPage';
import { NotFoundPage } from './pages/NotFoundPage';
import { areas } from './areas';

export function App() {
  const { state } = useSession();
  if (state.status === 'restoring') {
    return (
      <main className="center">
        <Loading what="your session" />
      </main>
    );
  }
  if (state.status === 'origin-not-allowed') return <OriginNotAllowedPage error={state.error} />;
  if (state.status === 'signed-out') return <SignInPage expired={state.reason === 'expired'} />;
  if (state.passwordChangeRequired) return <ChangePasswordPage forced />;
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<HomePage />} />
        <Route path="account" element={<AccountPage />} />
        <Route path="t/:tenantNumber">
          <Route index element={<Navigate to="devices" replace />} />
          <Route path="devices" element={<DevicesPage />} />
          <Route path="devices/:deviceId" element={<DevicePage />} />
          <Route path="guide" element={<GuidePage />} />
          <Route path="units" element={<UnitsPage />} />
          <Route path="device-types" element={<DeviceTypesPage />} />
          <Route path="device-types/:deviceTypeId" element={<DeviceTypePage />} />
          <Route path="credentials" element={<CredentialsPage />} />
          <Route path="audit" element={<AuditPage />} />
          <Route path="memberships" element={<MembershipsPage />} />
          {areas.map((area, index) => (area.tenantRoutes ? <Fragment key={index}>{area.tenantRoutes}</Fragment> : null))}
        </Route>
        <Route path="audit" element={<AuditPage />} />
        <Route path="users" element={<UsersPage />} />
        {areas.map((area, index) => (area.platformRoutes ? <Fragment key={index}>{area.platformRoutes}</Fragment> : null))}
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
