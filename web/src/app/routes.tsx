import { lazy, Suspense } from 'react';
import { createBrowserRouter, Outlet } from 'react-router';
import { AuthScreen } from '../features/auth/AuthScreen';
import { RequireSession } from '../features/auth/RequireSession';
import { ResetPasswordScreen } from '../features/auth/ResetPasswordScreen';
import { VerifyEmailScreen } from '../features/auth/VerifyEmailScreen';
import { InvitationScreen } from '../features/invitations/InvitationScreen';
import { CreateWorkspaceScreen } from '../features/workspaces/CreateWorkspaceScreen';
import { HomeRedirect } from '../features/workspaces/HomeRedirect';
import { WorkspaceScope } from '../features/workspaces/workspace-context';
import { RouteError } from '../ui/RouteError';
import { ScreenLoader } from '../ui/ScreenLoader';
import { screens } from './first-screen';
import { Shell } from './Shell';

// Screens load on demand: the shell stays small, and the editor's weight is paid only by the page screen.
const WorkspaceHome = screens.workspaceHome.Component;
const SpaceScreen = screens.space.Component;
const PageScreen = screens.page.Component;
const HistoryScreen = lazy(() => import('../features/pages/HistoryScreen'));
const TrashScreen = lazy(() => import('../features/pages/TrashScreen'));
const SearchScreen = lazy(() => import('../features/search/SearchScreen'));
const TasksScreen = lazy(() => import('../features/tasks/TasksScreen'));
const GoalsScreen = lazy(() => import('../features/goals/GoalsScreen'));
const ResearchScreen = lazy(() => import('../features/research/ResearchScreen'));
const SettingsScreen = lazy(() => import('../features/settings/SettingsScreen'));
const ConsentScreen = lazy(() => import('../features/oauth/ConsentScreen'));

/**
 * Every URL names what it shows: `/w/<workspace hostname>/s/<space slug>/p/<page slug>-<page id>`. Sub-screens of a
 * feature (task views, settings sections, a research job) live under its path with a trailing `*`.
 */
export const router = createBrowserRouter([
  { path: '/login', element: <AuthScreen mode="sign-in" />, errorElement: <RouteError /> },
  { path: '/signup', element: <AuthScreen mode="sign-up" />, errorElement: <RouteError /> },
  { path: '/reset-password/:token', element: <ResetPasswordScreen />, errorElement: <RouteError /> },
  { path: '/verify-email/:token', element: <VerifyEmailScreen />, errorElement: <RouteError /> },
  // Public share links: read-only, no sign-in.
  { path: '/invite/:token', element: <InvitationScreen />, errorElement: <RouteError /> },
  {
    element: (
      <RequireSession>
        <Outlet />
      </RequireSession>
    ),
    errorElement: <RouteError />,
    children: [
      { path: '/', element: <HomeRedirect /> },
      { path: '/new-workspace', element: <CreateWorkspaceScreen /> },
      // Where the service sends a person an app asked to connect (OAuth): outside the workspace shell, like sign-in.
      {
        path: '/oauth/consent/:uid',
        element: (
          <Suspense fallback={<ScreenLoader />}>
            <ConsentScreen />
          </Suspense>
        ),
      },
      {
        path: '/w/:ws',
        element: (
          <WorkspaceScope>
            <Shell />
          </WorkspaceScope>
        ),
        errorElement: <RouteError />,
        children: [
          { index: true, element: <WorkspaceHome /> },
          { path: 's/:space', element: <SpaceScreen /> },
          { path: 's/:space/p/:pageRef', element: <PageScreen /> },
          { path: 's/:space/p/:pageRef/history', element: <HistoryScreen /> },
          { path: 's/:space/trash', element: <TrashScreen /> },
          { path: 'search', element: <SearchScreen /> },
          { path: 'tasks/*', element: <TasksScreen /> },
          { path: 'goals/*', element: <GoalsScreen /> },
          { path: 'research/*', element: <ResearchScreen /> },
          { path: 'settings/*', element: <SettingsScreen /> },
        ],
      },
    ],
  },
  { path: '*', element: <RouteError notFound /> },
]);
