import { Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { ErrorNotice } from './ErrorNotice';
import { ScreenLoader } from './ScreenLoader';

interface ItemTableProps<T> {
  /** The rows: undefined while loading or when the read failed. */
  items: readonly T[] | undefined;
  /** Column headings, in order. */
  columns: readonly string[];
  /** Adds a last, unlabelled column for each row's buttons (named "Actions" for screen readers). */
  actions?: boolean;
  /** Shown in place of the table when there are no rows; without it the table is drawn with its head only. */
  empty?: ReactNode;
  /** Below this width the table scrolls sideways inside its container rather than widening the page. */
  minWidth: number;
  /** The table's accessible name. */
  label?: string;
  /** With `loading`, a loader stands in for everything; with `error`, the error is shown above the table. */
  loading?: boolean;
  error?: unknown;
  rowKey(item: T): string;
  /** One row's cells (`Table.Td`s). */
  children(item: T): ReactNode;
}

/** A striped list of items (API keys, webhooks, sources…) with its loading, error and empty states. */
export function ItemTable<T>({ items, columns, actions, empty, minWidth, label, loading, error, rowKey, children }: ItemTableProps<T>) {
  if (loading) return <ScreenLoader />;
  const rows = items ?? [];
  return (
    <>
      <ErrorNotice error={error} />
      {empty !== undefined && items?.length === 0 && <Text c="dimmed">{empty}</Text>}
      {(empty === undefined || rows.length > 0) && (
        <Table.ScrollContainer minWidth={minWidth}>
          <Table striped aria-label={label}>
            <Table.Thead>
              <Table.Tr>
                {columns.map((c) => (
                  <Table.Th key={c}>{c}</Table.Th>
                ))}
                {actions && <Table.Th aria-label="Actions" />}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((item) => (
                <Table.Tr key={rowKey(item)}>{children(item)}</Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </>
  );
}
