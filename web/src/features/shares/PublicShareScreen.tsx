import { AppShell, Box, Center, Divider, Group, Loader, NavLink, Stack, Text, Title } from '@mantine/core';
import { useEffect, useMemo } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../api/errors';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { ReadOnlyContent } from './ReadOnlyContent';
import { type PublicPage, type PublicTreeItem, usePublicShare, usePublicSharePage } from './shares.queries';

/** Tells search engines to stay away (the API answers say so too), unless the share lets them in. */
function useRobots(noindex: boolean) {
  useEffect(() => {
    if (!noindex) return;
    const meta = document.createElement('meta');
    meta.name = 'robots';
    meta.content = 'noindex';
    document.head.appendChild(meta);
    return () => meta.remove();
  }, [noindex]);
}

function useDocumentTitle(title: string | undefined) {
  useEffect(() => {
    if (!title) return;
    const before = document.title;
    document.title = title;
    return () => {
      document.title = before;
    };
  }, [title]);
}

/** The shared pages in tree order, each with its depth (the tree comes root first, by depth). */
function inTreeOrder(tree: PublicTreeItem[]): Array<PublicTreeItem & { depth: number }> {
  const children = new Map<string | null, PublicTreeItem[]>();
  for (const item of tree) children.set(item.parentId, [...(children.get(item.parentId) ?? []), item]);
  const out: Array<PublicTreeItem & { depth: number }> = [];
  const stack = (children.get(null) ?? []).map((item) => ({ item, depth: 0 })).reverse();
  while (stack.length) {
    const { item, depth } = stack.pop() as { item: PublicTreeItem; depth: number };
    out.push({ ...item, depth });
    for (const child of [...(children.get(item.id) ?? [])].reverse()) stack.push({ item: child, depth: depth + 1 });
  }
  return out;
}

function Unavailable() {
  return (
    <Center mih="70vh" p="md">
      <Stack align="center" gap="xs">
        <Title order={1} size="h2">
          This link is no longer available
        </Title>
        <Text c="dimmed">It may have been revoked, or the page is no longer published.</Text>
      </Stack>
    </Center>
  );
}

function SharedPage({ page }: { page: PublicPage }) {
  return (
    <Stack gap="md">
      <Title order={1}>
        {page.icon ? `${page.icon} ` : ''}
        {page.title || 'Untitled'}
      </Title>
      <ReadOnlyContent content={page.content} />
    </Stack>
  );
}

/** `/s/:token` and `/s/:token/:pageId`: a published page, read-only, for anyone with the link (no sign-in). */
export default function PublicShareScreen() {
  const { token = '', pageId } = useParams();
  const share = usePublicShare(token);
  const rootId = share.data?.share.pageId;
  const otherId = pageId && pageId !== rootId ? pageId : null;
  const other = usePublicSharePage(token, share.data ? otherId : null);
  const tree = useMemo(() => inTreeOrder(share.data?.tree ?? []), [share.data]);
  const page = otherId ? other.data : share.data?.page;
  useRobots(!share.data?.share.allowIndexing);
  useDocumentTitle(page?.title);

  if (share.isPending)
    return (
      <Center h="100vh">
        <Loader aria-label="Loading" />
      </Center>
    );
  if (share.error) return share.error instanceof ApiError && share.error.status === 404 ? <Unavailable /> : <ErrorNotice error={share.error} />;
  const withTree = tree.length > 1;
  const list = (label: string) => (
    <Box component="nav" aria-label={label}>
      {tree.map((item) => (
        <NavLink
          key={item.id}
          component={Link}
          to={`/s/${encodeURIComponent(token)}/${item.id}`}
          label={`${item.icon ? `${item.icon} ` : ''}${item.title || 'Untitled'}`}
          active={item.id === (otherId ?? rootId)}
          pl={8 + item.depth * 14}
        />
      ))}
    </Box>
  );
  return (
    // On a phone the list moves above the page (the side column would take the whole screen).
    <AppShell padding="md" navbar={withTree ? { width: 260, breakpoint: 'sm', collapsed: { mobile: true } } : undefined}>
      {withTree && (
        <AppShell.Navbar p="xs" visibleFrom="sm">
          {list('Shared pages')}
        </AppShell.Navbar>
      )}
      <AppShell.Main>
        {withTree && (
          <Box hiddenFrom="sm" mb="md">
            {list('Shared pages')}
          </Box>
        )}
        <Box maw={860} mx="auto" px={{ base: 0, sm: 'md' }} pb="xl">
          {otherId && other.isPending ? (
            <Center mih={240}>
              <Loader size="sm" aria-label="Loading the page" />
            </Center>
          ) : otherId && other.error ? (
            other.error instanceof ApiError && other.error.status === 404 ? (
              <Text c="dimmed">This page is not part of what was shared.</Text>
            ) : (
              <ErrorNotice error={other.error} />
            )
          ) : (
            page && <SharedPage key={page.id} page={page} />
          )}
          <Divider my="xl" />
          <Group justify="center">
            <Text size="xs" c="dimmed">
              Published with kb
            </Text>
          </Group>
        </Box>
      </AppShell.Main>
    </AppShell>
  );
}
