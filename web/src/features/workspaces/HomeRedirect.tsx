import { Center, Loader } from '@mantine/core';
import { Navigate } from 'react-router';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { paths } from './workspace-context';
import { useWorkspaces } from './workspaces.queries';

const LAST = 'kb.lastWorkspace';

export function rememberWorkspace(hostname: string) {
  try {
    localStorage.setItem(LAST, hostname);
  } catch {}
}

/** `/`: the last workspace used, else the first, else the form to create one. */
export function HomeRedirect() {
  const workspaces = useWorkspaces();
  if (workspaces.isPending)
    return (
      <Center h="100vh">
        <Loader aria-label="Loading" />
      </Center>
    );
  if (workspaces.error) return <ErrorNotice error={workspaces.error} />;
  if (workspaces.data.length === 0) return <Navigate to="/new-workspace" replace />;
  let last: string | null = null;
  try {
    last = localStorage.getItem(LAST);
  } catch {}
  const target = workspaces.data.find((w) => w.hostname === last) ?? workspaces.data[0];
  return <Navigate to={paths.workspace(target.hostname)} replace />;
}
