import { type LiveBlock, SUBPAGES, TABLE_OF_CONTENTS } from '@editor/live-blocks';
import { IconFileText, IconList, IconListTree } from '@tabler/icons-react';
import { type NodeViewProps, NodeViewWrapper, ReactNodeViewRenderer } from '@tiptap/react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useCurrentSpace } from '../../spaces/spaces.queries';
import { paths, useWorkspace } from '../../workspaces/workspace-context';
import { slugOfTitle, useTreeLevel } from '../pages.queries';
import { scrollToHeading, useHeadings } from '../toc/TableOfContents';
import type { UploadTarget } from './uploads';

/**
 * The live blocks of src/editor/live-blocks.ts as the app shows them, React node views (they read the app's queries
 * and the router through the editor's place in the React tree):
 * - subpages: the page's children from the page tree's own query (`useTreeLevel`, the level the sidebar reads), so a
 *   child added, renamed or moved in the tree or the title shows here as it does there;
 * - table of contents: the page's h1–h3 headings read from the editor (`useHeadings`, the same as the contents beside
 *   long pages), following every edit; a click scrolls to one.
 * Without a page (the public share view) the subpages block shows its label only.
 */

function LiveBlockFrame(props: { block: LiveBlock; selected: boolean; icon: ReactNode; children: ReactNode }) {
  return (
    <NodeViewWrapper
      as="nav"
      className={`kb-live-block kb-live-${props.block.htmlType}${props.selected ? ' ProseMirror-selectednode' : ''}`}
      data-type={props.block.htmlType}
      aria-label={props.block.label}
      contentEditable={false}
    >
      <p className="kb-live-block-title" data-drag-handle>
        {props.icon}
        {props.block.label}
      </p>
      {props.children}
    </NodeViewWrapper>
  );
}

function Note({ children }: { children: ReactNode }) {
  return <p className="kb-live-block-note">{children}</p>;
}

function ChildPages({ pageId }: { pageId: string }) {
  const workspace = useWorkspace();
  const { space } = useCurrentSpace();
  const children = useTreeLevel(workspace.id, space?.id ?? '', pageId, Boolean(space));
  if (!space || children.isPending) return <Note>Loading subpages…</Note>;
  if (children.error) return <Note>The subpages could not be loaded.</Note>;
  if (children.data.length === 0) return <Note>No subpages yet</Note>;
  return (
    <ul>
      {children.data.map((child) => (
        <li key={child.id}>
          <Link to={paths.page(workspace.hostname, space.slug, { id: child.id, slug: slugOfTitle(child.title) })} draggable={false}>
            <span className="kb-live-block-icon" aria-hidden>
              {child.icon ?? <IconFileText size={16} />}
            </span>
            <span className="kb-live-block-text">{child.title || 'Untitled'}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

function subpagesView(target: UploadTarget | null) {
  return function SubpagesView({ selected }: NodeViewProps) {
    return (
      <LiveBlockFrame block={SUBPAGES} selected={selected} icon={<IconListTree size={14} aria-hidden />}>
        {target ? <ChildPages pageId={target.pageId} /> : null}
      </LiveBlockFrame>
    );
  };
}

function TableOfContentsView({ editor, selected }: NodeViewProps) {
  const headings = useHeadings(editor);
  return (
    <LiveBlockFrame block={TABLE_OF_CONTENTS} selected={selected} icon={<IconList size={14} aria-hidden />}>
      {headings.length === 0 ? (
        <Note>No headings yet: the page's headings are listed here.</Note>
      ) : (
        <ul>
          {headings.map((h) => (
            <li key={h.pos} data-level={h.level}>
              <button type="button" onClick={() => scrollToHeading(editor, h)}>
                <span className="kb-live-block-text">{h.text}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </LiveBlockFrame>
  );
}

/** The view of a live block, or null for any other node. */
export function liveBlockView(name: string, target: UploadTarget | null) {
  if (name === SUBPAGES.name) return ReactNodeViewRenderer(subpagesView(target));
  if (name === TABLE_OF_CONTENTS.name) return ReactNodeViewRenderer(TableOfContentsView);
  return null;
}
