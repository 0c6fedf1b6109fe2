// Download links of a shared result (the server's streamed export endpoints), shown unless `#downloads=false`.

import { Button, Menu } from '@mantine/core';

const FORMATS = [
  { format: 'csv', label: '.csv' },
  { format: 'xlsx', label: '.xlsx' },
  { format: 'json', label: '.json' },
];

export function Downloads({ href, label = 'Download results' }: { href: (format: string) => string; label?: string }) {
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button variant="subtle" size="compact-sm" aria-label={label}>
          Download
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {FORMATS.map((f) => (
          <Menu.Item key={f.format} component="a" href={href(f.format)} download>
            {f.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
