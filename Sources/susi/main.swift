print("susi")
