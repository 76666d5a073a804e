#ifndef SUSI_CMICROHTTPD_SHIM_H
#define SUSI_CMICROHTTPD_SHIM_H
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>

/// MHD_start_daemon is variadic; its options go through one MHD_OPTION_ARRAY.
static inline struct MHD_Daemon *susi_mhd_start(unsigned int flags, uint16_t port,
                                                MHD_AccessHandlerCallback handler, void *handler_cls,
                                                struct MHD_OptionItem *options) {
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// MHD_get_daemon_info is variadic; the info types used here take no extra argument.
static inline const union MHD_DaemonInfo *susi_mhd_daemon_info(struct MHD_Daemon *d, enum MHD_DaemonInfoType t) {
    return MHD_get_daemon_info(d, t);
}

/// MHD_get_connection_info is variadic; the info types used here take no extra argument.
static inline const union MHD_ConnectionInfo *susi_mhd_connection_info(struct MHD_Connection *c,
                                                                       enum MHD_ConnectionInfoType t) {
    return MHD_get_connection_info(c, t);
}

/// An option taking an unsigned int, stored in the item's intptr_t as MHD_OPTION_ARRAY expects.
static inline struct MHD_OptionItem susi_mhd_option_uint(enum MHD_OPTION o, unsigned int v) {
    struct MHD_OptionItem item = { o, (intptr_t) v, NULL };
    return item;
}

/// MHD_OPTION_SOCK_ADDR carries its sockaddr in ptr_value; it is only read during MHD_start_daemon.
static inline struct MHD_OptionItem susi_mhd_option_sock_addr(const struct sockaddr *addr) {
    struct MHD_OptionItem item = { MHD_OPTION_SOCK_ADDR, 0, (void *) addr };
    return item;
}

/// MHD_OPTION_ARRAY wants a function pointer cast to intptr_t; Swift cannot spell that cast safely.
static inline struct MHD_OptionItem susi_mhd_option_notify_completed(MHD_RequestCompletedCallback cb, void *cls) {
    struct MHD_OptionItem item = { MHD_OPTION_NOTIFY_COMPLETED, (intptr_t) cb, cls };
    return item;
}

/// MHD_OPTION_EXTERNAL_LOGGER likewise carries a function pointer in the intptr_t slot.
static inline struct MHD_OptionItem susi_mhd_option_logger(MHD_LogCallback cb, void *cls) {
    struct MHD_OptionItem item = { MHD_OPTION_EXTERNAL_LOGGER, (intptr_t) cb, cls };
    return item;
}

/// An option taking a signed int (MHD_OPTION_STRICT_FOR_CLIENT), stored in the item's intptr_t.
static inline struct MHD_OptionItem susi_mhd_option_int(enum MHD_OPTION o, int v) {
    struct MHD_OptionItem item = { o, (intptr_t) v, NULL };
    return item;
}

/// MHD_OPTION_NOTIFY_CONNECTION carries a function pointer in the intptr_t slot.
static inline struct MHD_OptionItem susi_mhd_option_notify_connection(MHD_NotifyConnectionCallback cb, void *cls) {
    struct MHD_OptionItem item = { MHD_OPTION_NOTIFY_CONNECTION, (intptr_t) cb, cls };
    return item;
}

/// The signature MHD_OPTION_URI_LOG_CALLBACK expects; the header only names it in a comment.
typedef void *(*susi_mhd_uri_log_callback)(void *cls, const char *uri, struct MHD_Connection *connection);

/// MHD_OPTION_URI_LOG_CALLBACK likewise carries a function pointer in the intptr_t slot.
static inline struct MHD_OptionItem susi_mhd_option_uri_log(susi_mhd_uri_log_callback cb, void *cls) {
    struct MHD_OptionItem item = { MHD_OPTION_URI_LOG_CALLBACK, (intptr_t) cb, cls };
    return item;
}

/// The terminator of an MHD_OPTION_ARRAY.
static inline struct MHD_OptionItem susi_mhd_option_end(void) {
    struct MHD_OptionItem item = { MHD_OPTION_END, 0, NULL };
    return item;
}
/// MHD_CONTENT_READER_END_OF_STREAM is a cast macro Swift does not import.
static inline ssize_t susi_mhd_content_reader_end_of_stream(void) {
    return MHD_CONTENT_READER_END_OF_STREAM;
}

/// MHD_CONTENT_READER_END_WITH_ERROR is a cast macro Swift does not import: drop the connection.
static inline ssize_t susi_mhd_content_reader_end_with_error(void) {
    return MHD_CONTENT_READER_END_WITH_ERROR;
}

/// MHD_SIZE_UNKNOWN is a cast macro Swift does not import: a body whose length is not known.
static inline uint64_t susi_mhd_size_unknown(void) {
    return MHD_SIZE_UNKNOWN;
}
#endif
