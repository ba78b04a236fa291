#include "gitignore.h"

#include "../analysis/core/memo.h"
#include "../base/ignore.h"
#include "../base/paths.h"
#include "../base/source.h"
#include "../base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct al_gitignore {
    char *workdir;          /* real path, no trailing slash */
    bool icase;             /* core.ignorecase */
    al_ignore_rules info;   /* $GIT_DIR/info/exclude */
    al_ignore_rules global; /* core.excludesFile */
    al_memo folders;        /* folder (relative, "" for the top) -> its .gitignore's rules */
};

/* An ignore file's rules; a missing or unreadable file has none, as in git. */
static void read_rules(al_ignore_rules *rules, const char *path)
{
    char *bytes;
    size_t len;
    int err;
    if (al_file_read_bytes(path, &bytes, &len, &err) != AL_SOURCE_OK)
        return;
    al_ignore_parse(rules, bytes, len);
    free(bytes);
}

/* core.excludesFile, else git's default under the XDG folder. */
static char *global_excludes_path(git_config *cfg)
{
    git_buf buf = {0};
    char *path = NULL;
    if (cfg && git_config_get_path(&buf, cfg, "core.excludesfile") == 0)
        path = al_xstrdup(buf.ptr);
    git_buf_dispose(&buf);
    if (path)
        return path;
    const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
    al_strbuf sb = {0};
    if (xdg && *xdg)
        al_strbuf_printf(&sb, "%s/git/ignore", xdg);
    else if (home && *home)
        al_strbuf_printf(&sb, "%s/.config/git/ignore", home);
    return sb.data ? al_strbuf_detach(&sb) : NULL;
}

al_gitignore *al_gitignore_new(git_repository *repo, const char *workdir)
{
    al_gitignore *g = al_xcalloc(1, sizeof *g);
    g->workdir = al_xstrdup(workdir);
    size_t wl = strlen(g->workdir);
    while (wl > 1 && g->workdir[wl - 1] == '/')
        g->workdir[--wl] = '\0';
    git_config *cfg = NULL;
    if (git_repository_config_snapshot(&cfg, repo) != 0)
        cfg = NULL;
    int icase = 0;
    if (cfg && git_config_get_bool(&icase, cfg, "core.ignorecase") == 0)
        g->icase = icase != 0;
    char *info = al_path_join(git_repository_commondir(repo), "info/exclude");
    read_rules(&g->info, info);
    free(info);
    char *global = global_excludes_path(cfg);
    if (global)
        read_rules(&g->global, global);
    free(global);
    git_config_free(cfg);
    return g;
}

static void free_rules(void *p)
{
    al_ignore_rules_free(p);
    free(p);
}

void al_gitignore_free(al_gitignore *g)
{
    if (!g)
        return;
    al_ignore_rules_free(&g->info);
    al_ignore_rules_free(&g->global);
    al_memo_free(&g->folders);
    free(g->workdir);
    free(g);
}

/* The rules of folder `dir` (relative; "" is the top), read once. */
static const al_ignore_rules *folder_rules(al_gitignore *g, const char *dir)
{
    al_ignore_rules *rules = al_memo_get(&g->folders, dir);
    if (rules)
        return rules;
    rules = al_xcalloc(1, sizeof *rules);
    al_strbuf path = {0};
    al_strbuf_printf(&path, "%s/%s%s.gitignore", g->workdir, dir, *dir ? "/" : "");
    read_rules(rules, path.data);
    al_strbuf_free(&path);
    al_memo_put(&g->folders, dir, rules, free_rules);
    return rules;
}

void al_gitignore_no_file(al_gitignore *g, const char *rel)
{
    if (!al_memo_get(&g->folders, rel))
        al_memo_put(&g->folders, rel, al_xcalloc(1, sizeof(al_ignore_rules)), free_rules);
}

bool al_gitignore_excludes(al_gitignore *g, const char *rel, bool is_dir)
{
    /* The nearest folder's .gitignore first: a deeper file overrides. */
    char *dir = al_xstrdup(rel);
    const char *sub = rel;
    al_ignore_verdict v = AL_IGNORE_NO_MATCH;
    for (;;) {
        char *slash = strrchr(dir, '/');
        if (slash)
            *slash = '\0';
        else
            dir[0] = '\0';
        sub = rel + (slash ? strlen(dir) + 1 : 0);
        v = al_ignore_match(folder_rules(g, dir), sub, is_dir, g->icase);
        if (v != AL_IGNORE_NO_MATCH || !slash)
            break;
    }
    free(dir);
    if (v == AL_IGNORE_NO_MATCH)
        v = al_ignore_match(&g->info, rel, is_dir, g->icase);
    if (v == AL_IGNORE_NO_MATCH)
        v = al_ignore_match(&g->global, rel, is_dir, g->icase);
    return v == AL_IGNORE_EXCLUDED;
}

bool al_gitignore_excludes_path(al_gitignore *g, const char *rel, bool is_dir)
{
    char *prefix = al_xstrdup(rel);
    bool excluded = false;
    for (char *s = strchr(prefix, '/'); s && !excluded; s = strchr(s + 1, '/')) {
        *s = '\0';
        excluded = al_gitignore_excludes(g, prefix, true);
        *s = '/';
    }
    free(prefix);
    return excluded || al_gitignore_excludes(g, rel, is_dir);
}
