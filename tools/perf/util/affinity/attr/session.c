// SPDX-License-Identifier: GPL-2.0
/* What a perf affinity report holds across its samples (session.h) */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/compiler.h>
#include <linux/err.h>
#include <linux/zalloc.h>
#include "../fields/fields.h"
#include "../accumulate/type.h"
#include "session.h"
#include "../../hashmap.h"

static size_t fa_str__hash(long key, void *ctx __maybe_unused)
{
	return str_hash((const char *)key);
}

static bool fa_str__equal(long a, long b, void *ctx __maybe_unused)
{
	return !strcmp((const char *)a, (const char *)b);
}

/**
 * fa_session__init - A report's session, under the command's @cfg
 * @only_types: Attribute only these types (-T), or NULL
 */
int fa_session__init(struct fa_session *s, const struct fa_config *cfg, const char *only_types)
{
	memset(s, 0, sizeof(*s));
	s->cfg = cfg;
	s->type_names = hashmap__new(fa_str__hash, fa_str__equal, NULL);
	if (IS_ERR(s->type_names))
		s->type_names = NULL;
	s->type_aliases = hashmap__new(fa_str__hash, fa_str__equal, NULL);
	if (IS_ERR(s->type_aliases))
		s->type_aliases = NULL;
	if (!s->type_names || !s->type_aliases || fa_owners__init(&s->owners) ||
	    fa_inst_map__init(&s->instances) ||
	    fa_dlines__init(&s->dlines, cfg->line_size, cfg->xfer_ns, cfg->boot_ns) ||
	    fa_dlines__init(&s->watched, cfg->line_size, cfg->xfer_ns, cfg->boot_ns))
		return -ENOMEM;
	s->watched.exact = true;
	s->only = fa_type_filter__new(only_types);
	if (IS_ERR(s->only)) {
		int err = PTR_ERR(s->only);

		s->only = NULL;
		return err;
	}
	return 0;
}

bool fa_session__wanted(const struct fa_session *s, const char *name)
{
	return fa_type_filter__wants(s->only, name);
}

/* Whether @te is of @size (any, when either is 0) */
static bool fa_type_entry__sized(const struct fa_type_entry *te, u32 size)
{
	return !size || !te->size || te->size == size;
}

/* The type @name registered with @size (any, when either is 0), or NULL */
struct fa_type_entry *fa_session__find_type(const struct fa_session *s, const char *name,
					    u32 size)
{
	struct fa_type_entry *te = NULL;

	hashmap__find(s->type_names, name, &te);
	for (; te; te = te->same_name) {
		if (fa_type_entry__sized(te, size))
			return te;
	}
	if (hashmap__find(s->type_aliases, name, &te) && fa_type_entry__sized(te, size))
		return te;
	return NULL;
}

/*
 * The entry registered for the type @te is, by another name: a C++ class
 * named through a typedef or alias template ('MPMCQueue<int>' for
 * 'rigtorp::mpmc::Queue<int, ...>'), the same name with its scopes and size
 */
struct fa_type_entry *fa_session__find_same(const struct fa_session *s,
					    const struct fa_type_entry *te)
{
	for (int i = 0; te->st && te->st->cxx_name && i < s->nr_types; i++) {
		const struct fa_type_entry *other = s->types[i];

		if (other->st && other->st->cxx_name && other->size == te->size &&
		    !strcmp(other->st->cxx_name, te->st->cxx_name))
			return s->types[i];
	}
	return NULL;
}

/*
 * Find @te by @name too, another name of its type: -T of the name the code
 * spells it by wants it, whichever name came first
 */
int fa_session__add_alias(struct fa_session *s, const char *name, struct fa_type_entry *te)
{
	char *key = strdup(name);

	if (!key || hashmap__add(s->type_aliases, key, te)) {
		free(key);
		return -ENOMEM;
	}
	te->wanted |= fa_session__wanted(s, name);
	return 0;
}

/* Register @te, the newest of its name; the session owns it from now on */
int fa_session__add_type(struct fa_session *s, struct fa_type_entry *te)
{
	struct fa_type_entry **types = realloc(s->types, (s->nr_types + 1) * sizeof(*types));

	if (!types)
		return -ENOMEM;
	s->types = types;
	hashmap__find(s->type_names, te->key ?: te->name, &te->same_name);
	if (hashmap__set(s->type_names, te->key ?: te->name, te, NULL, NULL))
		return -ENOMEM;
	s->types[s->nr_types++] = te;
	return 0;
}

/* A type the session registered, and what its accesses showed */
void fa_type_entry__delete(struct fa_type_entry *te)
{
	fa_type__delete(te->t);
	fa_struct__delete(te->st);
	free(te->embeds);
	free(te->key);
	free(te->name);
	free(te);
}

void fa_session__exit(struct fa_session *s)
{
	fa_owners__exit(&s->owners);
	fa_inst_map__exit(&s->instances);
	fa_pending__exit(&s->pending);
	fa_arrays__exit(&s->arrays);
	fa_dlines__exit(&s->dlines);
	fa_dlines__exit(&s->watched);
	hashmap__free(s->type_names);
	if (s->type_aliases) {
		struct hashmap_entry *cur;
		size_t bkt;

		hashmap__for_each_entry(s->type_aliases, cur, bkt)
			free((char *)cur->pkey);
		hashmap__free(s->type_aliases);
	}
	for (int i = 0; i < s->nr_types; i++)
		fa_type_entry__delete(s->types[i]);
	zfree(&s->types);
	fa_type_filter__delete(s->only);
	memset(s, 0, sizeof(*s));
}
