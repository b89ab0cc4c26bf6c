/**
 * Wording of pages that stand in for a site's real page (issue 36 item 3): a refusal, a licensing
 * gate, a sign-in gate, a "verify you are human" page. Only read on a page that an agent got
 * instead of the browser's real page (soft-block.ts), never to judge a page alone.
 *
 * One list per language the edge corpus holds pages in (test/fixtures/edges/: English, French,
 * Portuguese and Indonesian; test/scanner/soft-block-corpus.test.ts fails when a language here has no corpus
 * page, so a language is added with a captured page of its own). Phrases are folded as rendered.ts folds a page (lower case,
 * typographic quotes as ASCII) and matched as substrings of the title and visible text.
 */

export type GateKind = 'refusal' | 'licensing' | 'login' | 'human-check';

interface Wording { refusal: readonly string[]; licensing: readonly string[]; login: readonly string[]; human: readonly string[] }

export const GATE_WORDING: Record<string, Wording> = {
  en: {
    refusal: ['access denied', 'access to this page has been denied', 'access is denied', 'you have been blocked', 'has been blocked', 'request blocked', 'request has been blocked',
      'request was blocked', 'request rejected', 'access blocked', 'not permitted to access', 'not allowed to access', 'automated access', 'automated requests are not', 'bots are not allowed',
      'ai crawlers are not', 'ai bots are not', 'ai agents are not', 'scraping is not permitted', 'scraping is prohibited', 'crawling is not permitted', 'forbidden', 'unauthorized access'],
    licensing: ['licensing', 'license this content', 'licence this content', 'protected dataset', 'content licensing', 'requires a license', 'requires a licence', 'commercial license',
      'ai training is not permitted', 'not licensed for', 'pay per crawl', 'paid access'],
    login: ['sign in to continue', 'log in to continue', 'login to continue', 'sign in to view', 'log in to view', 'please sign in', 'please log in', 'you must be logged in',
      'you need to sign in', 'sign in required', 'login required', 'members only', 'subscribe to continue'],
    human: ['verify you are human', 'verify that you are human', 'verify you are a human', 'not a robot', 'are you a robot', 'are you a human', 'prove you are human',
      'human verification', 'enter the characters you see', 'type the characters you see', 'complete the security check', 'unusual traffic'],
  },
  fr: {
    refusal: ['accès refusé', 'acces refuse', 'accès interdit', 'vous avez été bloqué', 'requête bloquée', 'demande rejetée', 'interdit'],
    licensing: ['licence', 'accès payant', 'droits de reproduction'],
    login: ['connectez-vous pour continuer', 'veuillez vous connecter', 'connexion requise', 'réservé aux abonnés'],
    human: ['vérifiez que vous êtes humain', 'vérifier que vous êtes humain', 'pas un robot', 'êtes-vous un robot'],
  },
  pt: {
    refusal: ['acesso bloqueado', 'acesso negado', 'acesso proibido', 'foi bloqueado'],
    licensing: ['licença', 'licenciamento'],
    login: ['faça login para continuar', 'inicie sessão para continuar'],
    human: ['não sou um robô', 'não é um robô', 'verifique que você é humano'],
  },
  id: {
    refusal: ['akses ditolak', 'permintaan ditolak', 'url ditolak', 'diblokir', 'tidak diizinkan'],
    licensing: ['lisensi'],
    login: ['silakan masuk', 'masuk untuk melanjutkan'],
    human: ['bukan robot', 'verifikasi bahwa anda manusia'],
  },
};

export interface GateWording {
  /** The kinds of gate the page's wording names, in GateKind order. */
  kinds: GateKind[];
  /** Denial wording (a refusal phrase) found. */
  denial: boolean;
  /** The first phrase of each kind found, as `<kind> "<phrase>" (<language>)`, for the evidence. */
  phrases: string[];
}

const KIND_LISTS: ReadonlyArray<[GateKind, keyof Wording]> = [['refusal', 'refusal'], ['licensing', 'licensing'], ['login', 'login'], ['human-check', 'human']];

export function findGateWording(folded: string): GateWording {
  const kinds: GateKind[] = [];
  const phrases: string[] = [];
  for (const [kind, list] of KIND_LISTS) {
    for (const [lang, wording] of Object.entries(GATE_WORDING)) {
      const hit = wording[list].find((p) => folded.includes(p));
      if (hit) {
        kinds.push(kind);
        phrases.push(`${kind} "${hit}" (${lang})`);
        break;
      }
    }
  }
  return { kinds, denial: kinds.includes('refusal'), phrases };
}
