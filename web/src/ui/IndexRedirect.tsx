import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';

/**
 * A screen's default view (`/tasks` → `/tasks/board`), replacing the address only while it is still the one this
 * route rendered for. React Router's `<Navigate>` fires from an effect: when the screen's lazy chunk arrives late, that
 * effect can run after the person has already gone elsewhere, and would take them back to this screen.
 */
export function IndexRedirect({ to }: { to: string }) {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    if (window.location.pathname !== location.pathname) return;
    navigate(to, { replace: true });
  }, [location.pathname, navigate, to]);
  return null;
}
