// Routes (spec §2) behind one guard; every screen is its own chunk, so /login stays small.
import { lazy, Suspense, type ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSessionStore } from './stores/session.ts';
import { decideRoute } from './routing/guard.ts';
import { InitializingScreen } from './components/InitializingScreen.tsx';
import { PageLoader } from './components/PageLoader.tsx';

const LoginPage = lazy(() => import('./pages/login/LoginPage.tsx'));
const ShellLayout = lazy(() => import('./components/shell/ShellLayout.tsx'));
const DashboardPage = lazy(() => import('./pages/home/DashboardPage.tsx'));
const ForecastingPage = lazy(() => import('./pages/forecasting/ForecastingPage.tsx'));
const ReportsPage = lazy(() => import('./pages/reports/ReportsPage.tsx'));
const DataPage = lazy(() => import('./pages/datatab/DataPage.tsx'));
const SettingsPage = lazy(() => import('./pages/settings/SettingsPage.tsx'));
const ProfilePage = lazy(() => import('./pages/profile/ProfilePage.tsx'));
const NotFoundPage = lazy(() => import('./pages/not-found/NotFoundPage.tsx'));

function Guard({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const { ready } = useTranslation();
  const isLoading = useSessionStore((state) => state.isLoading);
  const isLoggedIn = useSessionStore((state) => state.isLoggedIn);
  const isLoggingIn = useSessionStore((state) => state.isLoggingIn);
  const decision = decideRoute({ pathname, isLoading: isLoading || !ready, isLoggedIn, isLoggingIn });
  switch (decision.kind) {
    case 'initializing':
      return <InitializingScreen />;
    case 'redirect':
      return <Navigate to={decision.to} replace />;
    case 'render':
      return children;
  }
}

export function App() {
  return (
    <Guard>
      <Suspense fallback={<PageLoader />}>
        <Routes>
          <Route path="/" element={null} />
          <Route path="/login" element={<LoginPage />} />
          <Route element={<ShellLayout />}>
            <Route path="/app/home" element={<DashboardPage />} />
            <Route path="/app/forecasting" element={<ForecastingPage />} />
            <Route path="/app/reports" element={<ReportsPage />} />
            <Route path="/app/datatab" element={<DataPage />} />
            <Route path="/app/settings" element={<SettingsPage />} />
            <Route path="/profile" element={<ProfilePage />} />
            <Route path="/app/*" element={<NotFoundPage />} />
          </Route>
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </Suspense>
    </Guard>
  );
}
