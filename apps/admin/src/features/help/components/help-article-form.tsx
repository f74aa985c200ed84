import { useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Checkbox,
  Col,
  Flex,
  Form,
  type FormInstance,
  Input,
  InputNumber,
  Row,
  Select,
  Spin,
  Switch,
  Tabs,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  HELP_BODY_MAX,
  HELP_CATEGORIES,
  HELP_SLUG,
  HELP_SLUG_MAX,
  HELP_TITLE_MAX,
} from '@skyway/shared/help';
import { LANGUAGES, type Language } from '@skyway/shared/languages';
import type { Translated } from '@skyway/shared/notices';
import { ApiError } from '@skyway/shared/api-error';
import { LANGUAGE_NAMES } from '../../../lib/i18n.ts';
import { FormModal } from '../../../components/form-modal.tsx';
import { type HelpArticle, HELP_ARTICLES_KEY } from '../api/list-help-articles.ts';
import { useHelpPreview } from '../api/preview-help-article.ts';
import { type HelpArticleBody, saveHelpArticle } from '../api/save-help-article.ts';

const empty: Translated = { en: '', zh: '', tw: '' };
/** The placeholders' names, shown in the hint as staff type them (not filled in by i18next). */
const PLACEHOLDERS = { site_name: '{{site_name}}', device_link: '{{device_link}}' };

const valuesOf = (article: HelpArticle | null): HelpArticleBody =>
  article
    ? {
        slug: article.slug,
        category: article.category,
        position: article.position,
        published: article.published,
        title: article.title,
        body: article.body,
      }
    : { slug: '', category: 'clients', position: 0, published: false, title: empty, body: empty };

/** An article's rendered body (sanitized by the server, which escapes any HTML typed into the Markdown). */
function ArticleHtml(props: { html: string }) {
  return (
    <div
      className="help-article-html"
      style={{ overflowWrap: 'anywhere' }}
      dangerouslySetInnerHTML={{ __html: props.html }}
    />
  );
}

/** The body in one language as a customer with access will see it. */
function BodyPreview(props: { form: FormInstance<HelpArticleBody>; language: Language }) {
  const { t } = useTranslation('help');
  const title = (Form.useWatch(['title', props.language], props.form) as string | undefined) ?? '';
  const body = { ...empty, ...(Form.useWatch('body', props.form) as Partial<Translated> | undefined) };
  const result = useHelpPreview(body);
  const html = result.data?.html[props.language];
  return (
    <div
      data-testid={`help-preview-${props.language}`}
      style={{
        border: '1px solid #d9d9d9',
        borderRadius: 6,
        padding: '8px 12px',
        maxHeight: 520,
        overflow: 'auto',
      }}
    >
      {result.error && <Alert type="error" title={result.error.message} />}
      {result.isPending && <Spin />}
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {title}
      </Typography.Title>
      {html ? (
        <ArticleHtml html={html} />
      ) : (
        result.data && <Typography.Text type="secondary">{t('previewEmpty')}</Typography.Text>
      )}
    </div>
  );
}

/** One language's title and Markdown body, and the switch to see it as customers will. */
function LanguageFields(props: { form: FormInstance<HelpArticleBody>; language: Language }) {
  const { t } = useTranslation(['help', 'common']);
  const [previewing, setPreviewing] = useState(false);
  const { language } = props;
  const required = { required: true, whitespace: true, message: t('common:required') };
  return (
    <>
      <Form.Item name={['title', language]} label={t('articleTitle')} rules={[required]}>
        <Input maxLength={HELP_TITLE_MAX} autoComplete="off" />
      </Form.Item>
      <Flex justify="space-between" align="center" style={{ marginBottom: 8 }}>
        <label htmlFor={`help-body-${language}`}>{t('articleBody')}</label>
        <Flex gap={8} align="center">
          <Switch
            size="small"
            checked={previewing}
            aria-label={`${t('preview')} ${LANGUAGE_NAMES[language]}`}
            onChange={setPreviewing}
          />
          <span>{t('preview')}</span>
        </Flex>
      </Flex>
      <Form.Item
        name={['body', language]}
        rules={[required]}
        extra={t('bodyHint', PLACEHOLDERS)}
        hidden={previewing}
      >
        <Input.TextArea id={`help-body-${language}`} maxLength={HELP_BODY_MAX} showCount rows={14} />
      </Form.Item>
      {previewing && <BodyPreview form={props.form} language={language} />}
    </>
  );
}

/** Writes an article, or changes one: its address, category, place, state, and each language's text. */
export function HelpArticleModal(props: { article: HelpArticle | null; onClose: () => void }) {
  const { t } = useTranslation(['help', 'common']);
  const client = useQueryClient();
  const [form] = Form.useForm<HelpArticleBody>();
  const [tab, setTab] = useState<Language>('en');
  const { article } = props;
  return (
    <FormModal
      open
      title={article ? t('editArticle') : t('newArticle')}
      width={920}
      form={form}
      initialValues={valuesOf(article)}
      onClose={props.onClose}
      testId="help-article-form"
      onInvalid={(fields) => {
        const language = fields.map((name) => name[1]).find((key) => LANGUAGES.includes(key as Language));
        if (language) setTab(language as Language);
      }}
      onSubmit={async (values) => {
        try {
          await saveHelpArticle(article?.id, values);
        } catch (error) {
          if (error instanceof ApiError && (error.field === 'title' || error.field === 'body')) {
            throw new ApiError(error.code, error.message, { reason: error.reason });
          }
          throw error;
        } finally {
          await client.invalidateQueries({ queryKey: HELP_ARTICLES_KEY });
        }
      }}
    >
      <Row gutter={16}>
        <Col xs={24} md={10}>
          <Form.Item
            name="slug"
            label={t('slug')}
            extra={t('slugHint')}
            rules={[
              { required: true, message: t('common:required') },
              { pattern: HELP_SLUG, message: t('slugInvalid') },
            ]}
          >
            <Input maxLength={HELP_SLUG_MAX} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name="category" label={t('category')}>
            <Select options={HELP_CATEGORIES.map((value) => ({ value, label: t(`category_${value}`) }))} />
          </Form.Item>
        </Col>
        <Col xs={12} md={4}>
          <Form.Item name="position" label={t('position')} extra={t('positionHint')}>
            <InputNumber min={0} max={10_000} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={24} md={4}>
          <Form.Item name="published" label={t('state')} valuePropName="checked">
            <Checkbox>{t('published')}</Checkbox>
          </Form.Item>
        </Col>
      </Row>
      <Tabs
        activeKey={tab}
        onChange={(key) => setTab(key as Language)}
        items={LANGUAGES.map((language) => ({
          key: language,
          label: LANGUAGE_NAMES[language],
          forceRender: true,
          children: <LanguageFields form={form} language={language} />,
        }))}
      />
    </FormModal>
  );
}
