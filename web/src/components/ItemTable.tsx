// A list of collection items or search results: name (linked to its page), kind, and optional extra columns.

import { Anchor, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { itemUrl, modelLabel, type ItemRef } from '../lib/items';

export function ItemTable<T extends ItemRef>({
  items,
  actions,
  testId,
  extra,
  extraTitle = '',
}: {
  items: T[];
  actions?: (item: T) => ReactNode;
  testId?: string;
  extra?: (item: T) => ReactNode;
  extraTitle?: string;
}) {
  return (
    <Table highlightOnHover data-testid={testId} layout="fixed">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Name</Table.Th>
          <Table.Th>Type</Table.Th>
          {extra && <Table.Th>{extraTitle}</Table.Th>}
          {actions && <Table.Th />}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {items.map((item) => {
          const href = itemUrl(item);
          return (
            <Table.Tr key={`${item.model}-${item.id}`} data-testid="item-row">
              <Table.Td>
                {href ? (
                  <Anchor component={Link} href={href}>
                    {item.name}
                  </Anchor>
                ) : (
                  <Text span>{item.name}</Text>
                )}
              </Table.Td>
              <Table.Td>{modelLabel(item.model)}</Table.Td>
              {extra && <Table.Td>{extra(item)}</Table.Td>}
              {actions && <Table.Td>{actions(item)}</Table.Td>}
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}
