X=`date
