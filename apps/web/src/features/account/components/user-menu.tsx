import { useState } from 'react';
import { DownOutlined, LockOutlined, LogoutOutlined, MailOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Dropdown, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../lib/session.ts';
import { logout } from '../api/logout.ts';

export type AccountDialog = 'userInfo' | 'changePassword' | 'changeEmail';

/** The console's user dropdown: the account name, three dialogs and Log out. */
export function UserMenu({ onOpenDialog }: { onOpenDialog: (dialog: AccountDialog) => void }) {
  const { t } = useTranslation('account');
  const { user } = useSession();
  const [leaving, setLeaving] = useState(false);

  // The account name heads the list too: small screens show only an icon on the button.
  const items: MenuProps['items'] = [
    {
      type: 'group',
      label: <span className="user-menu__heading">{user?.account ?? ''}</span>,
      children: [
        { key: 'userInfo', icon: <UserOutlined />, label: t('menu.userInfo') },
        { key: 'changePassword', icon: <LockOutlined />, label: t('menu.changePassword') },
        { key: 'changeEmail', icon: <MailOutlined />, label: t('menu.changeEmail') },
      ],
    },
    { type: 'divider' },
    { key: 'logout', icon: <LogoutOutlined />, label: t('menu.logout'), danger: true },
  ];

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'logout') {
      setLeaving(true);
      void logout();
    } else if (key === 'userInfo' || key === 'changePassword' || key === 'changeEmail') {
      onOpenDialog(key);
    }
  };

  return (
    <Dropdown menu={{ items, onClick }} trigger={['click']} placement="bottomRight">
      <Button
        type="text"
        className="user-menu"
        loading={leaving}
        // The name starts with the account the button shows (WCAG 2.5.3, label in name).
        aria-label={user?.account ? t('menu.labelWithAccount', { account: user.account }) : t('menu.label')}
      >
        <UserOutlined />
        <span className="user-menu__account">{user?.account ?? ''}</span>
        <DownOutlined className="user-menu__caret" />
      </Button>
    </Dropdown>
  );
}
