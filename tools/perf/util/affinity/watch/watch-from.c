// SPDX-License-Identifier: GPL-2.0
/*
 * perf affinity record --watch-from: what to watch, from an earlier
 * recording: the --watch its report names for its most contended shared
 * line of a variable of the executable (fa_dline__watch_scnprintf()).  A
 * recording is reported by this perf ('affinity report --json -'); the
 * JSON of a report is read as it is.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <linux/kernel.h>
#include "../../json-reader.h"
#include "watch.h"
#include "../../strbuf.h"

/* Run this perf's 'affinity report -i @path --json -', its output into @fd */
static pid_t fa_watch__report(const char *path, int fd)
{
	pid_t pid = fork();
	int null;

	if (pid)
		return pid;
	null = open("/dev/null", O_WRONLY);
	if (dup2(fd, STDOUT_FILENO) < 0 || null < 0 || dup2(null, STDERR_FILENO) < 0)
		_exit(127);
	execl("/proc/self/exe", "perf", "affinity", "report", "-i", path, "--json", "-", NULL);
	_exit(127);
}

/* The JSON report of @path: read as it is, or the report of a recording */
static int fa_watch__report_json(const char *path, struct strbuf *out)
{
	int fd = open(path, O_RDONLY), pfd[2], status, err = 0;
	pid_t pid;
	char c;

	if (fd < 0)
		return -errno;
	if (read(fd, &c, 1) == 1 && c == '{' && !lseek(fd, 0, SEEK_SET)) {
		err = strbuf_read(out, fd, 0) < 0 ? -errno : 0;
		close(fd);
		return err;
	}
	close(fd);
	if (pipe2(pfd, O_CLOEXEC))
		return -errno;
	pid = fa_watch__report(path, pfd[1]);
	close(pfd[1]);
	if (pid < 0) {
		close(pfd[0]);
		return -errno;
	}
	if (strbuf_read(out, pfd[0], 4096) < 0)
		err = -errno;
	close(pfd[0]);
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		err = err ?: -EINVAL;
	return err;
}

/**
 * fa_watch__from - The --watch the report of an earlier recording names
 * @path: The recording, or the JSON of its report
 * @arg: Result: the --watch argument, to free
 * @errbuf: Why there is none
 *
 * Return: 0 or a negative error.
 */
int fa_watch__from(const char *path, char **arg, char *errbuf, size_t size)
{
	struct strbuf json = STRBUF_INIT;
	const struct json_value *lines;
	struct json_value doc;
	int err;

	*arg = NULL;
	err = fa_watch__report_json(path, &json);
	if (err) {
		scnprintf(errbuf, size, "cannot report it (%s)", strerror(-err));
		goto out;
	}
	err = json_value__parse(&doc, json.buf, errbuf, size);
	if (err)
		goto out;
	/* the lines most contended first */
	lines = json_value__get(&doc, "data_lines");
	for (int i = 0; lines && !*arg && i < lines->nr; i++) {
		const char *watch = json_value__string(json_value__at(lines, i, JSON_VALUE_OBJECT), "watch");

		if (watch)
			*arg = strdup(watch);
	}
	if (!*arg) {
		scnprintf(errbuf, size,
			  "its report names no shared line of a variable of the executable to watch");
		err = -ENOENT;
	}
	json_value__exit(&doc);
out:
	strbuf_release(&json);
	return err;
}
