import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { App, Button, Card, Space, Table, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { when } from '../../../lib/format.ts';
import { currentLanguage } from '../../../lib/i18n.ts';
import { Forbidden } from '../../../components/forbidden.tsx';
import { useCan } from '../../../lib/session.ts';
import { useChange } from '../../../lib/use-change.ts';
import { deleteHelpArticle } from '../api/delete-help-article.ts';
import { type HelpArticle, HELP_ARTICLES_KEY, useHelpArticles } from '../api/list-help-articles.ts';
import { HelpArticleModal } from './help-article-form.tsx';

const titleOf = (article: HelpArticle) => article.title[currentLanguage()] || article.title.en;

/**
 * The help center's articles in the order customers see them, each opening onto its Markdown as
 * written. Every role reads them; owners, admins and support write, order, publish and delete them.
 */
export function HelpArticlesPage() {
  const { t } = useTranslation(['help', 'common']);
  const can = useCan();
  const { modal } = App.useApp();
  const change = useChange(HELP_ARTICLES_KEY);
  // Undefined: closed; null: a new article.
  const [editing, setEditing] = useState<HelpArticle | null | undefined>(undefined);
  const list = useHelpArticles();
  if (!can('help.view')) return <Forbidden />;
  const editable = can('help.edit');
  const askDelete = (article: HelpArticle) =>
    modal.confirm({
      title: `${t('deleteArticle')}: ${titleOf(article)}`,
      content: t('deleteArticleConfirm'),
      okText: t('deleteArticle'),
      okButtonProps: { danger: true },
      cancelText: t('common:cancel'),
      onOk: () => change(() => deleteHelpArticle(article.id)),
    });
  return (
    <Card
      title={t('title')}
      extra={
        editable && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)}>
            {t('newArticle')}
          </Button>
        )
      }
    >
      <Table<HelpArticle>
        rowKey="id"
        data-testid="help-articles"
        loading={list.isPending}
        dataSource={list.data ?? []}
        pagination={false}
        scroll={{ x: 900 }}
        expandable={{
          expandedRowRender: (article) => (
            <pre style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{article.body[currentLanguage()]}</pre>
          ),
        }}
        columns={[
          { title: t('articleTitle'), key: 'title', render: (_, article) => titleOf(article) },
          { title: t('slug'), dataIndex: 'slug' },
          {
            title: t('category'),
            dataIndex: 'category',
            render: (category: HelpArticle['category']) => t(`category_${category}`),
          },
          { title: t('position'), dataIndex: 'position', width: 90 },
          {
            title: t('state'),
            dataIndex: 'published',
            render: (published: boolean) =>
              published ? <Tag color="green">{t('published')}</Tag> : <Tag>{t('draft')}</Tag>,
          },
          { title: t('updatedAt'), dataIndex: 'updated_at', render: when, width: 170 },
          ...(editable
            ? [
                {
                  key: 'actions',
                  fixed: 'right' as const,
                  width: 100,
                  render: (_: unknown, article: HelpArticle) => (
                    <Space size="small">
                      <Tooltip title={t('common:edit')}>
                        <Button
                          size="small"
                          icon={<EditOutlined />}
                          aria-label={t('common:edit')}
                          onClick={() => setEditing(article)}
                        />
                      </Tooltip>
                      <Tooltip title={t('common:delete')}>
                        <Button
                          size="small"
                          danger
                          icon={<DeleteOutlined />}
                          aria-label={t('common:delete')}
                          onClick={() => askDelete(article)}
                        />
                      </Tooltip>
                    </Space>
                  ),
                },
              ]
            : []),
        ]}
      />
      {editing !== undefined && <HelpArticleModal article={editing} onClose={() => setEditing(undefined)} />}
    </Card>
  );
}
