import { useQueryClient } from '@tanstack/react-query';
import { Checkbox, Col, Form, type FormInstance, Input, InputNumber, Row, Select, Tabs } from 'antd';
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
import { MarkdownFields } from '../../../components/markdown-fields.tsx';
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

/** The server's rendering of the body in every language, as a customer with access will see it. */
const useRendered = (body: Translated) => {
  const result = useHelpPreview(body);
  return { ...result, data: result.data?.html };
};

/** One language's title and Markdown body, and the switch to see it as customers will. */
function LanguageFields(props: { form: FormInstance<HelpArticleBody>; language: Language }) {
  const { t } = useTranslation('help');
  return (
    <MarkdownFields
      form={props.form}
      language={props.language}
      name="help"
      labels={{
        title: t('articleTitle'),
        body: t('articleBody'),
        bodyHint: t('bodyHint', PLACEHOLDERS),
        previewEmpty: t('previewEmpty'),
      }}
      limits={{ title: HELP_TITLE_MAX, body: HELP_BODY_MAX }}
      usePreview={useRendered}
      htmlClass="help-article-html"
    />
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
