import { Alert, Anchor, Button, Center, Divider, Group, Loader, Modal, Stack, Switch, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconLock } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../../../api/errors';
import { ErrorNotice } from '../../../ui/ErrorNotice';
import { useUser } from '../../auth/session';
import { PublicLinkSection } from '../../shares/PublicLinkSection';
import { paths, useWorkspace } from '../../workspaces/workspace-context';
import { type DraftGrant, type PageAccess, usePageAccess, useRestriction } from './access.queries';
import { PeopleList } from './PeopleList';
import { RestrictionEditor } from './RestrictionEditor';

export interface SharedPage {
  id: string;
  workspaceId: string;
  title: string;
  /** For links to the restricted pages above it (same space). */
  hostname: string;
  spaceSlug: string;
}

/**
 * The page's "Share" dialog: who can open it and why (workspace admin, space role, group, restriction), the
 * restrictions it inherits, (for its editors and workspace admins) restricting it to chosen people and groups, and
 * its public link (create, copy, revoke) when the workspace allows public pages.
 */
export function ShareModal({ opened, onClose, page, canManage }: { opened: boolean; onClose(): void; page: SharedPage; canManage: boolean }) {
  const access = usePageAccess(page.id, opened);
  const narrow = useMediaQuery('(max-width: 36em)');
  return (
    <Modal opened={opened} onClose={onClose} title={`Share “${page.title || 'Untitled'}”`} size="lg" fullScreen={narrow} centered>
      {access.isPending ? (
        <Center mih={160}>
          <Loader size="sm" aria-label="Loading who has access" />
        </Center>
      ) : access.error ? (
        <ErrorNotice error={access.error} title="Who has access could not be read" />
      ) : (
        <ShareBody key={grantsKey(access.data)} access={access.data} page={page} canManage={canManage} onClose={onClose} />
      )}
    </Modal>
  );
}

/** Changes when the saved restriction does, so the form starts again from what the server holds. */
const grantsKey = (access: PageAccess) => JSON.stringify(access.restriction?.grants.map((g) => [g.id, g.role]) ?? null);

function draftOf(access: PageAccess): DraftGrant[] {
  return (access.restriction?.grants ?? []).map((g) => ({ type: g.type, id: g.id, name: g.name, email: g.email, role: g.role }));
}

function ShareBody({ access, page, canManage, onClose }: { access: PageAccess; page: SharedPage; canManage: boolean; onClose(): void }) {
  const user = useUser();
  const workspace = useWorkspace();
  const [restricting, setRestricting] = useState(access.restriction !== null);
  const [grants, setGrants] = useState<DraftGrant[]>(() => draftOf(access));
  const { save, remove } = useRestriction(page.id);
  const busy = save.isPending || remove.isPending;
  const dirty = restricting !== (access.restriction !== null) || (restricting && grantsKeyOf(grants) !== grantsKeyOf(draftOf(access)));

  const toggle = (on: boolean) => {
    setRestricting(on);
    save.reset();
    remove.reset();
    // Starting a restriction: the person making it is in as editor, so they keep the page.
    if (on && grants.length === 0) setGrants([{ type: 'user', id: user.id, name: user.name, email: user.email, role: 'editor' }]);
  };
  const submit = () => (restricting ? save.mutate(grants) : remove.mutate());

  return (
    <Stack gap="md">
      {access.inherited.map((above) => (
        <Alert key={above.pageId} color="orange" variant="light" icon={<IconLock size={16} />} title="Restricted by a page above">
          <Text size="sm">
            Restricted by{' '}
            <Anchor component={Link} to={paths.page(page.hostname, page.spaceSlug, { id: above.pageId })} onClick={onClose}>
              {above.title || 'Untitled'}
            </Anchor>
            : only the people it allows can open this page, whatever is set here.
          </Text>
        </Alert>
      ))}

      <Stack gap="xs">
        <Title order={5}>Who has access</Title>
        <PeopleList people={access.people} truncated={access.peopleTruncated} />
      </Stack>

      <Divider />

      <Switch
        label="Restrict this page"
        description="Only the people and groups you choose can open it and the pages under it. Space roles still cap what they can do."
        checked={restricting}
        onChange={(e) => toggle(e.currentTarget.checked)}
        disabled={!canManage || busy}
      />
      {restricting && canManage && <RestrictionEditor workspaceId={page.workspaceId} grants={grants} onChange={setGrants} disabled={busy} />}
      {restricting && !canManage && (
        <Text size="sm" c="dimmed">
          Restricted to: {grants.map((g) => `${g.name} (${g.role})`).join(', ')}
        </Text>
      )}
      {!canManage && (
        <Text size="xs" c="dimmed">
          Only editors of this page and workspace admins can change who has access.
        </Text>
      )}

      <SaveError error={save.error ?? remove.error} />

      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {dirty ? 'Cancel' : 'Close'}
        </Button>
        {canManage && dirty && (
          <Button onClick={submit} loading={busy} disabled={restricting && grants.length === 0} color={restricting ? undefined : 'red'}>
            {restricting ? 'Save restriction' : 'Remove restriction'}
          </Button>
        )}
      </Group>

      <Divider />

      <PublicLinkSection
        workspaceId={page.workspaceId}
        pageId={page.id}
        hostname={page.hostname}
        canEdit={canManage}
        isAdmin={workspace.role === 'admin'}
        restricted={access.restriction !== null || access.inherited.length > 0}
        onNavigate={onClose}
      />
    </Stack>
  );
}

const grantsKeyOf = (grants: DraftGrant[]) =>
  grants
    .map((g) => `${g.type}:${g.id}:${g.role}`)
    .sort()
    .join(',');

/** The refusal, in words; shutting oneself out gets its own explanation. */
function SaveError({ error }: { error: unknown }) {
  if (!error) return null;
  const reason = error instanceof ApiError ? (error.details as { reason?: string } | undefined)?.reason : undefined;
  if (reason === 'would_lock_out_self')
    return (
      <Alert color="red" variant="light" role="alert" title="You would lose access to this page">
        Keep yourself in as <b>Editor</b>, directly or through one of your groups, so that you can still open the page and change who has access. Only a
        workspace admin can restrict a page to other people alone.
      </Alert>
    );
  return <ErrorNotice error={error} title="The restriction could not be saved" />;
}
