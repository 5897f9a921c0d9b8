import { Alert, Anchor, Button, Center, Checkbox, Code, Group, Loader, Paper, Select, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconPlugConnected } from '@tabler/icons-react';
import { type ReactNode, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../api/errors';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { FormStack } from '../../ui/FormStack';
import { useSession } from '../auth/session';
import { type ConsentDetails, type OAuthScope, requestEnded, SCOPES, useConsentDecision, useConsentDetails } from './oauth.queries';

const START_AGAIN = 'Go back to the app and start connecting to kb again.';

/**
 * `/oauth/consent/<uid>`, where the service sends a person an app (an AI client) asked to connect: who asks, where
 * the browser goes back to, what it may do (scopes the app asked for, narrowed by the person), and the one workspace
 * it may reach. Connect or Cancel answers the service, which sends the browser back to the app. Behind sign-in.
 */
export default function ConsentScreen() {
  const { uid = '' } = useParams();
  const details = useConsentDetails(uid);
  if (details.isPending)
    return (
      <Frame>
        <Center>
          <Loader aria-label="Loading" />
        </Center>
      </Frame>
    );
  if (details.error) return <RequestNotUsable error={details.error} />;
  return <Consent uid={uid} details={details.data} />;
}

function Frame({ children }: { children: ReactNode }) {
  return (
    <Center component="main" mih="100vh" p="md">
      <Paper withBorder shadow="sm" p={{ base: 'md', xs: 'xl' }} radius="md" w={520} maw="100%">
        {children}
      </Paper>
    </Center>
  );
}

function RequestNotUsable({ error }: { error: unknown }) {
  const ended = requestEnded(error);
  const gone = error instanceof ApiError && error.status === 404;
  return (
    <Frame>
      <Stack>
        <Title order={1} size="h2">
          {ended ? 'This connection request has ended' : 'This connection request cannot be used'}
        </Title>
        <ErrorNotice error={error} title={ended ? 'Request ended' : gone ? 'App not found' : 'Could not read the request'} />
        <Text size="sm">
          {ended || gone ? START_AGAIN : 'Reload this page to try again; if it keeps failing, go back to the app and start connecting to kb again.'}
        </Text>
        <Anchor component={Link} to="/" size="sm">
          Go to kb
        </Anchor>
      </Stack>
    </Frame>
  );
}

/** The app's home page as a link when it is a web address, else as text. */
function HomePage({ uri }: { uri: string }) {
  const url = URL.canParse(uri) ? new URL(uri) : null;
  if (!url || !/^https?:$/.test(url.protocol)) return <Text span>{uri}</Text>;
  return (
    <Anchor href={url.href} target="_blank" rel="noopener noreferrer">
      {url.host}
    </Anchor>
  );
}

function Consent({ uid, details }: { uid: string; details: ConsentDetails }) {
  const { user, signOut } = useSession();
  const { client, workspaces } = details;
  const asked = SCOPES.filter((s) => s.value === 'read' || details.scopes.includes(s.value));
  const [scopes, setScopes] = useState<OAuthScope[]>(asked.map((s) => s.value));
  const [workspaceId, setWorkspaceId] = useState<string | null>(workspaces.length === 1 ? workspaces[0].id : null);
  const [missingWorkspace, setMissingWorkspace] = useState(false);
  const workspaceField = useRef<HTMLInputElement>(null);
  const decide = useConsentDecision(uid);
  const workspace = workspaces.find((w) => w.id === workspaceId);
  // After an answer the browser is on its way back to the app: the buttons stay busy until it leaves.
  const leaving = decide.isPending || decide.isSuccess;
  const answering = leaving ? decide.variables?.approve : undefined;

  const connect = () => {
    if (!workspaceId) {
      setMissingWorkspace(true);
      workspaceField.current?.focus();
      return;
    }
    decide.mutate({ approve: true, workspaceId, scopes: scopes.includes('read') ? scopes : ['read', ...scopes] });
  };

  return (
    <Frame>
      <FormStack aria-labelledby="consent-title" onSubmit={connect}>
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <ThemeIcon size={40} radius="md" variant="light" aria-hidden>
            <IconPlugConnected size={24} />
          </ThemeIcon>
          <Title order={1} size="h3" id="consent-title" style={{ overflowWrap: 'anywhere' }}>
            Connect {client.name} to kb?
          </Title>
        </Group>
        {user && (
          <Text size="sm" c="dimmed">
            Signed in as {user.email}.{' '}
            <Anchor component="button" type="button" size="sm" onClick={() => void signOut()}>
              Not you? Sign out
            </Anchor>
          </Text>
        )}

        <Stack gap={6}>
          <Title order={2} size="h5">
            The app
          </Title>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            <strong>{client.name}</strong>
            {client.uri && (
              <>
                {' · home page '}
                <HomePage uri={client.uri} />
              </>
            )}
          </Text>
          {client.registration === 'metadata_document' ? (
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              Identified by its metadata document at <Code>{client.id}</Code>
            </Text>
          ) : (
            <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />} title="Registered itself (dynamic registration)" p="sm">
              Its name is what the app says about itself: kb has not checked it. Connect only if you have just asked this app to connect to kb.
            </Alert>
          )}
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            After you answer, your browser goes back to <strong>{client.redirectHost}</strong>.
          </Text>
        </Stack>

        <Checkbox.Group
          label="What it may do"
          description="It acts as you, never beyond what you yourself may do."
          value={scopes}
          onChange={(v) => setScopes(v as OAuthScope[])}
        >
          <Stack gap="sm" mt="xs">
            {asked.map((s) => (
              <Checkbox
                key={s.value}
                value={s.value}
                label={s.label}
                disabled={s.value === 'read' || leaving}
                description={
                  s.value === 'admin' && workspace && workspace.role !== 'admin'
                    ? `${s.description}. You are not an admin in ${workspace.name}, so it adds nothing there.`
                    : s.description
                }
              />
            ))}
          </Stack>
        </Checkbox.Group>

        {workspaces.length === 0 ? (
          <Alert color="blue" variant="light" title="You need a workspace first">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">
                An app connects to one of your workspaces, and you are not in any yet. Create one (or accept an invitation), then come back here.
              </Text>
              <Button size="xs" component={Link} to={`/new-workspace?next=${encodeURIComponent(`/oauth/consent/${uid}`)}`}>
                Create a workspace
              </Button>
            </Stack>
          </Alert>
        ) : (
          <Select
            ref={workspaceField}
            label="Workspace"
            description={
              workspace
                ? `The app reaches only ${workspace.name}, where you are ${/^[aeiou]/i.test(workspace.role) ? 'an' : 'a'} ${workspace.role}.`
                : 'The one workspace the app may reach.'
            }
            placeholder="Choose a workspace"
            data={workspaces.map((w) => ({ value: w.id, label: w.name }))}
            value={workspaceId}
            onChange={(v) => {
              setWorkspaceId(v);
              setMissingWorkspace(false);
            }}
            allowDeselect={false}
            disabled={leaving}
            error={missingWorkspace && !workspaceId ? 'Choose the workspace the app may reach' : undefined}
            required
            comboboxProps={{ withinPortal: true }}
          />
        )}

        <ErrorNotice error={decide.error} title={requestEnded(decide.error) ? 'This connection request has ended' : 'Could not send your answer'} />
        {requestEnded(decide.error) && <Text size="sm">{START_AGAIN}</Text>}

        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => decide.mutate({ approve: false })} loading={answering === false} disabled={leaving && answering !== false}>
            Cancel
          </Button>
          <Button type="submit" loading={answering === true} disabled={workspaces.length === 0 || (leaving && answering !== true)}>
            Connect
          </Button>
        </Group>
        <Text size="xs" c="dimmed">
          You can disconnect it at any time in Settings › Connected apps.
        </Text>
      </FormStack>
    </Frame>
  );
}
