import { useTranslation } from "react-i18next";
import type { ReplyStats as Stats } from "../../src-shared/contracts/chat.js";
import { formatNumber } from "../format/formatNumber.js";

/** Time to first token, generation speed and tokens of one reply, as the server measured them. */
export function ReplyStats({ stats }: { stats: Stats }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  return (
    <div className="reply-stats" data-testid="reply-stats">
      <span title={t("chat.stats.ttftHint")}>
        {t("chat.stats.ttft", { value: formatNumber(stats.ttft_ms, locale, 0) })}
      </span>
      <span title={t("chat.stats.speedHint")}>
        {t("chat.stats.speed", {
          value: formatNumber(
            stats.generation_tokens_per_second,
            locale,
            stats.generation_tokens_per_second >= 100 ? 0 : 1,
          ),
        })}
      </span>
      <span title={t("chat.stats.tokensHint", { prompt: formatNumber(stats.prompt_tokens, locale, 0) })}>
        {t("chat.stats.tokens", {
          count: stats.completion_tokens,
          value: formatNumber(stats.completion_tokens, locale, 0),
        })}
      </span>
    </div>
  );
}
