import { Anchor, Badge, Group, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { type Member, type Project, priorityLabel, statusLabel, type Task } from './tasks.queries';

/** The tasks as a table: one row each, the title linking to its detail. */
export function TaskList(props: { tasks: Task[]; members: Member[]; projects: Project[]; taskHref: (id: string) => string }) {
  const memberName = new Map(props.members.map((m) => [m.id, m.name]));
  const projectName = new Map(props.projects.map((p) => [p.id, p.name]));
  if (props.tasks.length === 0) return <Text c="dimmed">No tasks match.</Text>;
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table striped highlightOnHover aria-label="Tasks">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Title</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Priority</Table.Th>
            <Table.Th>Due</Table.Th>
            <Table.Th>Assignee</Table.Th>
            <Table.Th>Project</Table.Th>
            <Table.Th>Labels</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {props.tasks.map((t) => (
            <Table.Tr key={t.id}>
              <Table.Td>
                <Anchor component={Link} to={props.taskHref(t.id)}>
                  {t.title}
                </Anchor>
              </Table.Td>
              <Table.Td>{statusLabel(t.status)}</Table.Td>
              <Table.Td>{t.priority ? priorityLabel(t.priority) : '—'}</Table.Td>
              <Table.Td>{t.dueDate ?? '—'}</Table.Td>
              <Table.Td>{t.assigneeId ? (memberName.get(t.assigneeId) ?? 'A former member') : 'Unassigned'}</Table.Td>
              <Table.Td>{t.projectId ? (projectName.get(t.projectId) ?? '—') : '—'}</Table.Td>
              <Table.Td>
                <Group gap={4}>
                  {t.labels.map((l) => (
                    <Badge key={l} size="xs" variant="dot">
                      {l}
                    </Badge>
                  ))}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
